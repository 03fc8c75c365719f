import { EventTypes, Outcomes, PROTOBUF_CONTENT_TYPE, type ConsumedRecord, type EventType, type Handler, type Outcome, type TopicName } from '@stormhook/kafka';
import type { Logger } from '@stormhook/logger';
import { feedV1 } from '@stormhook/proto';
import type { FeedMessage } from '../domain/validate.js';
import type { IngestRecord, IngestResult } from '../usecases/ingest-record.js';

interface FeedTopic {
  eventType: EventType;
  decode(value: Buffer): FeedMessage;
}

/** The four raw feed topics, the message each carries and how to decode it. */
export const FEED_TOPICS: Partial<Record<TopicName, FeedTopic>> = {
  'feed.precipitation.v1': {
    eventType: EventTypes.PrecipitationObservation,
    decode: (value) => ({ feed: 'precipitation', message: feedV1.PrecipitationObservation.decode(value) }),
  },
  'feed.lightning.v1': {
    eventType: EventTypes.LightningStrike,
    decode: (value) => ({ feed: 'lightning', message: feedV1.LightningStrike.decode(value) }),
  },
  'feed.thunderstorm.v1': {
    eventType: EventTypes.ThunderstormCell,
    decode: (value) => ({ feed: 'thunderstorm', message: feedV1.ThunderstormCell.decode(value) }),
  },
  'feed.forecast.v1': {
    eventType: EventTypes.ForecastGrid,
    decode: (value) => ({ feed: 'forecast', message: feedV1.ForecastGrid.decode(value) }),
  },
};

export const FEED_TOPIC_NAMES = Object.keys(FEED_TOPICS) as TopicName[];

/** Running totals, for logs, tests and the benchmark. */
export interface IngestCounters {
  published: number;
  duplicate: number;
  stale: number;
  rejected: number;
  retried: number;
}

export function newCounters(): IngestCounters {
  return { published: 0, duplicate: 0, stale: 0, rejected: 0, retried: 0 };
}

const SUPPORTED_SCHEMA_VERSION = 1;

/** Envelope checks before decoding: a record we cannot interpret safely is poison, not a retry. */
function checkEnvelope(record: ConsumedRecord, spec: FeedTopic): string | undefined {
  const { headers } = record;
  if (headers.eventType !== spec.eventType) {
    return `header event-type is "${headers.eventType}", but ${record.topic} carries ${spec.eventType}`;
  }
  if (headers.contentType !== PROTOBUF_CONTENT_TYPE) {
    return `header content-type is "${headers.contentType}", but feed records are ${PROTOBUF_CONTENT_TYPE}`;
  }
  if (headers.schemaVersion !== SUPPORTED_SCHEMA_VERSION) {
    return `header schema-version is ${headers.schemaVersion}; this ingest reads version ${SUPPORTED_SCHEMA_VERSION}`;
  }
  return undefined;
}

function describe(result: IngestResult): string {
  return result.kind === 'published' ? `published revision ${result.revision}` : result.kind;
}

/**
 * The Kafka handler of the feed topics: envelope, decode, then the use case, with every outcome a
 * value. Rejects become dead letters naming the field; store or broker trouble becomes a retry.
 */
export function createFeedHandler(deps: { ingest: IngestRecord; logger: Logger; counters?: IngestCounters }): Handler {
  const counters = deps.counters ?? newCounters();
  return async (record: ConsumedRecord): Promise<Outcome> => {
    const spec = FEED_TOPICS[record.topic];
    if (!spec) return Outcomes.deadLetter(`ingest does not read topic ${record.topic}`);
    const envelope = checkEnvelope(record, spec);
    if (envelope) {
      counters.rejected++;
      return Outcomes.deadLetter(envelope);
    }
    const typeName = spec.eventType.split('.').pop();
    let input: FeedMessage;
    try {
      input = spec.decode(record.value);
    } catch (error) {
      counters.rejected++;
      return Outcomes.deadLetter(`value is not a valid ${spec.eventType}: ${(error as Error).message}`);
    }
    let result: IngestResult;
    try {
      result = await deps.ingest.execute(input);
    } catch (error) {
      counters.retried++;
      return Outcomes.retry(`ingest failed: ${(error as Error).message}`);
    }
    counters[result.kind]++;
    deps.logger.debug({ topic: record.topic, offset: record.offset, eventId: record.headers.eventId, result: describe(result) }, 'feed record handled');
    if (result.kind === 'rejected') return Outcomes.deadLetter(`invalid ${typeName}: ${result.reason}`);
    return Outcomes.ok();
  };
}
