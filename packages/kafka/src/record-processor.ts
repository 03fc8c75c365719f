import { ROOT_CONTEXT, SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { KafkaMessage } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@stormhook/logger';
import { extractTraceContext } from '@stormhook/telemetry';
import { nextStep, outcomeFromError, type Outcome, type RetryPolicy } from './outcome.js';
import { toConsumedRecord, type ConsumedRecord } from './record.js';
import type { TopicName } from './topics.js';
import { kafkaTracer, messagingAttributes } from './tracing.js';

export type Handler = (record: ConsumedRecord) => Promise<Outcome>;

/** Where one record is, in catalogue and broker terms. */
export interface RecordCoordinates {
  topic: TopicName;
  physicalTopic: string;
  partition: number;
}

export interface ProcessorDeps {
  groupId: string;
  handler: Handler;
  policy: RetryPolicy;
  logger: Logger;
  /** Aborted when the consumer stops: backoff waits end early and the record is left uncommitted. */
  signal: AbortSignal;
  heartbeatIntervalMs: number;
  /** Writes the record to the dead-letter topic; rejects if the broker did not take it. */
  deadLetter(message: KafkaMessage, at: RecordCoordinates, reason: string): Promise<void>;
}

/**
 * done: commit the offset. abandoned: the consumer is stopping mid-retry; leave the record for the
 * next owner of the partition. fatal: transient failure that never cleared; stop the consumer.
 */
export type ProcessResult = { kind: 'done'; via: 'ok' | 'dead-letter' } | { kind: 'abandoned' } | { kind: 'fatal'; error: Error };

/**
 * Waits out a backoff while keeping the group membership alive. Heartbeat errors (a rebalance took the
 * partition away) propagate on purpose: kafkajs then rejoins and the record goes to its new owner.
 */
export async function backoff(ms: number, signal: AbortSignal, heartbeat: () => Promise<void>, intervalMs: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (let left = ms; left > 0; left = until - Date.now()) {
    try {
      await sleep(Math.min(left, intervalMs), undefined, { signal });
    } catch {
      return false;
    }
    await heartbeat();
  }
  return !signal.aborted;
}

async function runHandler(handler: Handler, record: ConsumedRecord): Promise<Outcome> {
  try {
    return await handler(record);
  } catch (error) {
    return outcomeFromError(error);
  }
}

function fail(span: Span, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

async function deadLetterOrFatal(deps: ProcessorDeps, message: KafkaMessage, at: RecordCoordinates, reason: string, span: Span): Promise<ProcessResult> {
  fail(span, `dead-lettered: ${reason}`);
  try {
    await deps.deadLetter(message, at, reason);
  } catch (error) {
    // The producer already retried; without a dead letter we may not skip the record, so stop.
    return { kind: 'fatal', error: new Error(`could not dead-letter ${at.physicalTopic}/${at.partition}@${message.offset}: ${(error as Error).message}`) };
  }
  deps.logger.warn({ topic: at.physicalTopic, partition: at.partition, offset: message.offset, reason }, 'record dead-lettered');
  return { kind: 'done', via: 'dead-letter' };
}

/**
 * Runs the handler for one record inside a CONSUMER span whose parent is the producer's context, so
 * one trace covers HTTP -> gRPC -> Kafka -> handler. Unparseable records and explicit dead-letter
 * outcomes go to the dead-letter topic; retries back off and end the consumer when exhausted.
 */
export async function processMessage(
  deps: ProcessorDeps,
  at: RecordCoordinates,
  message: KafkaMessage,
  heartbeat: () => Promise<void>,
): Promise<ProcessResult> {
  const parent = extractTraceContext(message.headers ?? {}, ROOT_CONTEXT);
  const attributes = messagingAttributes(at.physicalTopic, {
    'messaging.operation.type': 'process',
    'messaging.consumer.group.name': deps.groupId,
    'messaging.destination.partition.id': String(at.partition),
    'messaging.kafka.offset': Number(message.offset),
  });
  return kafkaTracer().startActiveSpan(`process ${at.physicalTopic}`, { kind: SpanKind.CONSUMER, attributes }, parent, async (span): Promise<ProcessResult> => {
    try {
      const parsed = toConsumedRecord(at.topic, at.partition, message);
      if (!parsed.ok) return await deadLetterOrFatal(deps, message, at, `unparseable record: ${parsed.reason}`, span);
      const record = parsed.record;
      span.setAttribute('messaging.message.id', record.headers.eventId);
      span.setAttribute('stormhook.event_type', record.headers.eventType);

      for (let attempt = 1; ; attempt++) {
        const step = nextStep(await runHandler(deps.handler, record), attempt, deps.policy);
        switch (step.kind) {
          case 'commit':
            return { kind: 'done', via: 'ok' };
          case 'dead-letter':
            return await deadLetterOrFatal(deps, message, at, step.reason, span);
          case 'give-up': {
            const text = `gave up on ${at.physicalTopic}/${at.partition}@${message.offset} (event ${record.headers.eventId}) after ${step.attempts} attempts: ${step.reason}`;
            fail(span, text);
            return { kind: 'fatal', error: new Error(text) };
          }
          case 'retry': {
            span.addEvent('retry', { attempt, reason: step.reason, delay_ms: step.delayMs });
            deps.logger.warn(
              {
                topic: at.physicalTopic,
                partition: at.partition,
                offset: message.offset,
                eventId: record.headers.eventId,
                attempt,
                delayMs: step.delayMs,
                reason: step.reason,
              },
              'handler asked to retry',
            );
            if (deps.signal.aborted || !(await backoff(step.delayMs, deps.signal, heartbeat, deps.heartbeatIntervalMs))) {
              return { kind: 'abandoned' };
            }
            break;
          }
        }
      }
    } catch (error) {
      fail(span, (error as Error).message);
      throw error;
    } finally {
      span.end();
    }
  });
}
