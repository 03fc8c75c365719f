import assert from 'node:assert/strict';
import { channelHandler, EventTypes, PROTOBUF_CONTENT_TYPE, TopicNames, type ConsumedRecord, type TopicName } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { feedV1 } from '@stormhook/proto';
import { MemorySeenStore } from '../dedup/memory-seen-store.js';
import { DEFAULT_RULES } from '../domain/rules.js';
import { lightning, NOW } from '../test-support/feed-fixtures.js';
import { RecordingSink } from '../test-support/recording-sink.js';
import { IngestRecord } from '../usecases/ingest-record.js';
import { feedChannels, newCounters } from './feed-handler.js';

const logger = createLogger({ service: 'ingest-test', level: 'silent' });

function consumed(topic: TopicName, value: Uint8Array, headers: Partial<ConsumedRecord['headers']> = {}): ConsumedRecord {
  return {
    topic,
    partition: 0,
    offset: '0',
    key: 'strike-1',
    value: Buffer.from(value),
    timestamp: new Date(NOW),
    headers: { eventType: EventTypes.LightningStrike, eventId: 'evt_1', schemaVersion: 1, contentType: PROTOBUF_CONTENT_TYPE, all: {}, ...headers },
  };
}

describe('feed handler', () => {
  const setup = () => {
    const sink = new RecordingSink();
    const counters = newCounters();
    const ingest = new IngestRecord({ store: new MemorySeenStore(), sink, rules: DEFAULT_RULES, clock: () => NOW });
    // As the consumer runs them: the channel checks the envelope and decodes, the handlers ingest.
    const channels = feedChannels({ ingest, logger, counters });
    const handler = channelHandler(channels.handlers, channels);
    return { sink, counters, handler };
  };

  it('ingests a record and counts it', async () => {
    const { sink, counters, handler } = setup();
    const outcome = await handler(consumed(TopicNames.FeedLightning, feedV1.LightningStrike.encode(lightning())));
    assert.deepEqual(outcome, { kind: 'ok' });
    assert.equal(sink.published.length, 1);
    assert.equal(counters.published, 1);
  });

  it('dead-letters a record whose event type does not belong on the topic', async () => {
    const { handler } = setup();
    const outcome = await handler(consumed(TopicNames.FeedLightning, feedV1.LightningStrike.encode(lightning()), { eventType: EventTypes.ForecastGrid }));
    assert.equal(outcome.kind, 'dead-letter');
    if (outcome.kind === 'dead-letter') assert.match(outcome.reason, /event-type is "stormhook\.feed\.v1\.ForecastGrid", but feed\.lightning\.v1 carries/);
  });

  it('dead-letters JSON sent instead of protobuf, and an unknown schema version', async () => {
    const { handler } = setup();
    const json = await handler(consumed(TopicNames.FeedLightning, Buffer.from('{}'), { contentType: 'application/json' }));
    assert.equal(json.kind, 'dead-letter');
    const v2 = await handler(consumed(TopicNames.FeedLightning, feedV1.LightningStrike.encode(lightning()), { schemaVersion: 2 }));
    assert.equal(v2.kind, 'dead-letter');
    if (v2.kind === 'dead-letter') assert.match(v2.reason, /schema-version is 2/);
  });

  it('dead-letters bytes that are not the message, and counts them as rejected', async () => {
    const { counters, handler } = setup();
    const outcome = await handler(consumed(TopicNames.FeedLightning, Buffer.from([0x0a, 0xff, 0xff, 0xff])));
    assert.equal(outcome.kind, 'dead-letter');
    if (outcome.kind === 'dead-letter') assert.match(outcome.reason, /value is not a valid stormhook\.feed\.v1\.LightningStrike/);
    assert.equal(counters.rejected, 1);
  });

  it('dead-letters an invalid record with the field in the reason', async () => {
    const { counters, handler } = setup();
    const outcome = await handler(consumed(TopicNames.FeedLightning, feedV1.LightningStrike.encode(lightning({ multiplicity: 400 }))));
    assert.equal(outcome.kind, 'dead-letter');
    if (outcome.kind === 'dead-letter') assert.match(outcome.reason, /^invalid LightningStrike: multiplicity: 400 strokes/);
    assert.equal(counters.rejected, 1);
  });

  it('asks for a retry when publishing fails', async () => {
    const { sink, counters, handler } = setup();
    sink.failNext = 1;
    const outcome = await handler(consumed(TopicNames.FeedLightning, feedV1.LightningStrike.encode(lightning())));
    assert.equal(outcome.kind, 'retry');
    assert.equal(counters.retried, 1);
  });
});
