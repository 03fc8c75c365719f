import { channelSpec, Outcomes, type ChannelConsumerOptions, type ChannelRecord, type Outcome } from '@stormhook/kafka';
import type { Logger } from '@stormhook/logger';
import type { FeedKind } from '../domain/normalised.js';
import type { FeedMessage } from '../domain/validate.js';
import type { IngestRecord, IngestResult } from '../usecases/ingest-record.js';
import { FEED_ROUTES } from '../usecases/weather-topics.js';

type FeedChannel = (typeof FEED_ROUTES)[FeedKind]['feed'];

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

function describe(result: IngestResult): string {
  return result.kind === 'published' ? `published revision ${result.revision}` : result.kind;
}

/**
 * The Kafka side of the feed channels: the use case on each decoded message, with every outcome a
 * value. Rejects become dead letters naming the field; store or broker trouble becomes a retry.
 * Records whose envelope or bytes are not their channel's are dead-lettered by the consumer before
 * they get here, and counted as rejected too.
 */
export function feedChannels(deps: {
  ingest: IngestRecord;
  logger: Logger;
  counters?: IngestCounters;
}): Pick<ChannelConsumerOptions<FeedChannel>, 'handlers' | 'onRejected'> {
  const counters = deps.counters ?? newCounters();
  const handle = async (record: ChannelRecord<FeedChannel>, input: FeedMessage): Promise<Outcome> => {
    let result: IngestResult;
    try {
      result = await deps.ingest.execute(input);
    } catch (error) {
      counters.retried++;
      return Outcomes.retry(`ingest failed: ${(error as Error).message}`);
    }
    counters[result.kind]++;
    deps.logger.debug({ topic: record.topic, offset: record.offset, eventId: record.headers.eventId, result: describe(result) }, 'feed record handled');
    if (result.kind === 'rejected') return Outcomes.deadLetter(`invalid ${channelSpec(record.topic).eventType.split('.').pop()}: ${result.reason}`);
    return Outcomes.ok();
  };
  return {
    handlers: {
      [FEED_ROUTES.precipitation.feed]: (record) => handle(record, { feed: 'precipitation', message: record.message }),
      [FEED_ROUTES.lightning.feed]: (record) => handle(record, { feed: 'lightning', message: record.message }),
      [FEED_ROUTES.thunderstorm.feed]: (record) => handle(record, { feed: 'thunderstorm', message: record.message }),
      [FEED_ROUTES.forecast.feed]: (record) => handle(record, { feed: 'forecast', message: record.message }),
    },
    onRejected: () => {
      counters.rejected++;
    },
  };
}
