import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { Kafka, Message } from 'kafkajs';
import { MicroBatcher } from '@stormhook/batch';
import type { Logger } from '@stormhook/logger';
import { injectTraceContext } from '@stormhook/telemetry';
import type { EventType } from './event-types.js';
import { EVENT_HEADERS, PROTOBUF_CONTENT_TYPE } from './headers.js';
import { newEventId } from './ids.js';
import { ProducerSession } from './producer-session.js';
import { topicNamer, type TopicNamer } from './topic-namer.js';
import { TOPICS, type TopicName } from './topics.js';
import { kafkaTracer, messagingAttributes } from './tracing.js';

export interface EventToPublish {
  /** Partitioning key (for example the area id of a weather event); null spreads records over partitions. */
  key: string | null;
  /** The encoded protobuf message. */
  value: Buffer | Uint8Array;
  eventType: EventType;
  /** Give it when the event already has an id (an outbox entry, a replay); a new `evt_...` id otherwise. */
  eventId?: string;
  schemaVersion?: number;
  /** Extra headers; the event headers above and the trace context win over same-named entries. */
  headers?: Record<string, string>;
}

export interface PublishResult {
  /** The event id of each event, in input order. */
  eventIds: string[];
}

/** A record copied as it is, headers included (dead letters, replays). */
export interface RawRecord {
  key: Buffer | string | null;
  value: Buffer | string | null;
  headers: Message['headers'];
}

export interface Publisher {
  readonly clientId: string;
  readonly topics: TopicNamer;
  /** Connects once; publish connects on demand, services call it at start to fail fast. */
  connect(): Promise<void>;
  /** Resolves once every event is acknowledged by all in-sync replicas; rejects otherwise. */
  publish(topic: TopicName, events: readonly EventToPublish[]): Promise<PublishResult>;
  /** Sends records verbatim, without new ids or trace headers. */
  forward(topic: TopicName, records: readonly RawRecord[]): Promise<void>;
  disconnect(): Promise<void>;
}

export interface PublisherOptions {
  logger: Logger;
  /** Names this publisher in logs and spans. */
  clientId: string;
  /** Topic prefix; see {@link topicNamer}. */
  prefix?: string;
  /** How concurrent publish calls share produce requests; see {@link PublishBatching}. */
  batching?: Partial<PublishBatching>;
}

/**
 * With one request in flight (idempotence), every publish call used to wait for all the calls queued
 * before it, one broker round trip each. Now the calls that arrive while a request is out go
 * together in the next one (one request across topics), like the Java producer's batching: a lone
 * call waits at most `lingerMs`, a busy producer sends a request per round trip, not per call.
 */
export interface PublishBatching {
  /** Publish calls per produce request at most (each call's events stay together and in order). */
  maxCalls: number;
  /** How long the first call of a request waits for company when nothing is in flight. */
  lingerMs: number;
}

export const DEFAULT_PUBLISH_BATCHING: PublishBatching = { maxCalls: 500, lingerMs: 0 };

interface PendingSend {
  topic: string;
  messages: Message[];
}

/** One request for many calls: messages grouped by topic, each topic's in call order. */
function topicMessages(sends: readonly PendingSend[]): Array<{ topic: string; messages: Message[] }> {
  const byTopic = new Map<string, Message[]>();
  for (const { topic, messages } of sends) {
    const list = byTopic.get(topic);
    if (list) list.push(...messages);
    else byTopic.set(topic, [...messages]);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

function checkEventType(topic: TopicName, eventType: EventType): void {
  const allowed: readonly EventType[] = TOPICS[topic].eventTypes;
  if (allowed.length > 0 && !allowed.includes(eventType)) {
    throw new Error(`event type ${eventType} does not belong on topic ${topic} (catalogue allows ${allowed.join(', ')})`);
  }
}

export function createPublisher(kafka: Kafka, opts: PublisherOptions): Publisher {
  const topics = topicNamer(opts.prefix);
  const logger = opts.logger.child({ component: 'kafka-publisher', clientId: opts.clientId });
  const session = new ProducerSession(kafka, logger);
  const connect = (): Promise<void> => session.connect();
  const send = (topic: string, messages: Message[]): Promise<void> => session.sendBatch({ topicMessages: [{ topic, messages }] });

  const batching: PublishBatching = { ...DEFAULT_PUBLISH_BATCHING, ...opts.batching };
  const sends = new MicroBatcher<PendingSend, void>({
    maxItems: batching.maxCalls,
    maxDelayMs: batching.lingerMs,
    // One request at a time, as the idempotent producer allows; a failed request fails its calls only.
    flush: async (items) => {
      await session.sendBatch({ topicMessages: topicMessages(items) });
      return items.map(() => undefined);
    },
  });

  return {
    clientId: opts.clientId,
    topics,
    connect,

    async publish(topic, events) {
      for (const event of events) checkEventType(topic, event.eventType);
      if (events.length === 0) return { eventIds: [] };
      const physical = topics.physical(topic);
      return kafkaTracer().startActiveSpan(
        `send ${physical}`,
        {
          kind: SpanKind.PRODUCER,
          attributes: messagingAttributes(physical, {
            'messaging.operation.type': 'send',
            'messaging.batch.message_count': events.length,
            'messaging.client.id': opts.clientId,
          }),
        },
        async (span) => {
          try {
            const prepared = events.map((event) => ({ event, eventId: event.eventId ?? newEventId() }));
            // Every record of the call carries the same trace context (this span's): injected once,
            // not once per record.
            const trace = injectTraceContext({}, context.active());
            const messages = prepared.map(({ event, eventId }): Message => ({
              key: event.key,
              value: Buffer.isBuffer(event.value) ? event.value : Buffer.from(event.value),
              headers: {
                ...event.headers,
                [EVENT_HEADERS.eventType]: event.eventType,
                [EVENT_HEADERS.eventId]: eventId,
                [EVENT_HEADERS.schemaVersion]: String(event.schemaVersion ?? 1),
                [EVENT_HEADERS.contentType]: event.headers?.[EVENT_HEADERS.contentType] ?? PROTOBUF_CONTENT_TYPE,
                ...trace,
              },
            }));
            const eventIds = prepared.map((p) => p.eventId);
            if (eventIds.length === 1) span.setAttribute('messaging.message.id', eventIds.join());
            await sends.add({ topic: physical, messages });
            return { eventIds };
          } catch (error) {
            span.recordException(error as Error);
            span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
            logger.error({ err: error, topic: physical, count: events.length }, 'publish failed');
            throw error;
          } finally {
            span.end();
          }
        },
      );
    },

    async forward(topic, records) {
      if (records.length === 0) return;
      await send(
        topics.physical(topic),
        records.map((r) => ({ key: r.key, value: r.value, headers: r.headers })),
      );
    },

    async disconnect() {
      if (!session.connected) return;
      await sends.drain();
      await session.disconnect();
    },
  };
}
