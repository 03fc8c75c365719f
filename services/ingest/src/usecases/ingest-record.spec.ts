import assert from 'node:assert/strict';
import { weatherV1 } from '@stormhook/proto';
import { MemorySeenStore } from '../dedup/memory-seen-store.js';
import { DEFAULT_RULES } from '../domain/rules.js';
import { forecast, lightning, NOW, precipitation, thunderstorm } from '../test-support/feed-fixtures.js';
import { RecordingSink } from '../test-support/recording-sink.js';
import { IngestRecord } from './ingest-record.js';
import { TopicNames } from '@stormhook/kafka';

function setup() {
  const store = new MemorySeenStore();
  const sink = new RecordingSink();
  const ingest = new IngestRecord({ store, sink, rules: DEFAULT_RULES, clock: () => NOW });
  return { store, sink, ingest };
}

describe('IngestRecord', () => {
  it('publishes a valid record once, keyed by area, with revision 1', async () => {
    const { sink, ingest } = setup();
    const result = await ingest.execute({ feed: 'precipitation', message: precipitation() });
    assert.equal(result.kind, 'published');
    assert.equal(sink.published.length, 1);
    const [{ topic, event }] = sink.published as [(typeof sink.published)[number]];
    assert.equal(topic, TopicNames.WeatherPrecipitation);
    assert.equal(event.key, 'sxp');
    assert.equal(event.eventType, 'stormhook.weather.v1.PrecipitationEvent');
    const decoded = weatherV1.PrecipitationEvent.decode(event.value);
    assert.equal(decoded.eventId, 'prc_radar-1');
    assert.deepEqual(decoded.revision, { revision: 1, sourceVersion: 0, sourceUpdatedEpochMs: 0, ingestedEpochMs: NOW });
  });

  it('does not publish an identical re-send', async () => {
    const { sink, ingest } = setup();
    await ingest.execute({ feed: 'lightning', message: lightning() });
    const again = await ingest.execute({ feed: 'lightning', message: lightning() });
    assert.deepEqual(again, { kind: 'duplicate', sourceId: 'strike-1' });
    assert.equal(sink.published.length, 1);
  });

  it('publishes an update as the next revision of the same event id, and drops the late older version', async () => {
    const { sink, ingest } = setup();
    await ingest.execute({ feed: 'thunderstorm', message: thunderstorm({ version: 1 }) });
    const update = await ingest.execute({ feed: 'thunderstorm', message: thunderstorm({ version: 2, severity: 'THUNDERSTORM_SEVERITY_HIGH' }) });
    assert.equal(update.kind, 'published');
    const late = await ingest.execute({ feed: 'thunderstorm', message: thunderstorm({ version: 1, severity: 'THUNDERSTORM_SEVERITY_LOW' }) });
    assert.equal(late.kind, 'stale');
    const events = sink.published.map((p) => weatherV1.ThunderstormEvent.decode(p.event.value));
    assert.deepEqual(
      events.map((e) => [e.eventId, e.revision!.revision, e.severity]),
      [
        ['tst_EAF202506151200001', 1, 'THUNDERSTORM_SEVERITY_MEDIUM'],
        ['tst_EAF202506151200001', 2, 'THUNDERSTORM_SEVERITY_HIGH'],
      ],
    );
    assert.notEqual(sink.published[0]!.event.eventId, sink.published[1]!.event.eventId);
  });

  it('rejects new content under an explicit version it already has', async () => {
    const { ingest } = setup();
    await ingest.execute({ feed: 'thunderstorm', message: thunderstorm({ version: 1 }) });
    const conflict = await ingest.execute({ feed: 'thunderstorm', message: thunderstorm({ version: 1, threshold: 9 }) });
    assert.equal(conflict.kind, 'rejected');
    if (conflict.kind === 'rejected') assert.match(conflict.reason, /version 1 was already received with different content/);
  });

  it('after a failed publish, the retry publishes the record as if new', async () => {
    const { store, sink, ingest } = setup();
    sink.failNext = 1;
    await assert.rejects(ingest.execute({ feed: 'precipitation', message: precipitation() }), /broker unavailable/);
    assert.equal(store.entries.size, 0, 'nothing recorded for an event that was not published');
    const retried = await ingest.execute({ feed: 'precipitation', message: precipitation() });
    assert.equal(retried.kind, 'published');
    assert.equal(sink.published.length, 1);
  });

  it('after a crash between publishing and recording, the redelivery publishes the same Kafka event id', async () => {
    const { store, sink, ingest } = setup();
    const realInsert = store.insert.bind(store);
    store.insert = async () => {
      throw new Error('database unavailable');
    };
    await assert.rejects(ingest.execute({ feed: 'precipitation', message: precipitation() }), /database unavailable/);
    store.insert = realInsert;
    await ingest.execute({ feed: 'precipitation', message: precipitation() });
    // Two copies on the topic, one event for every reader: same event id, same revision.
    assert.equal(sink.published.length, 2);
    assert.equal(sink.published[0]!.event.eventId, sink.published[1]!.event.eventId);
    const again = await ingest.execute({ feed: 'precipitation', message: precipitation() });
    assert.equal(again.kind, 'duplicate');
    assert.equal(sink.published.length, 2);
  });

  it('publishes one forecast event per area of a chunk', async () => {
    const { sink, ingest } = setup();
    await ingest.execute({ feed: 'forecast', message: forecast() });
    assert.deepEqual(
      sink.published.map((p) => [p.topic, p.event.key]),
      [
        [TopicNames.WeatherForecast, 'sxk'],
        [TopicNames.WeatherForecast, 'sxp'],
      ],
    );
    const decoded = weatherV1.ForecastEvent.decode(sink.published[0]!.event.value);
    assert.equal(decoded.runId, 'sim-run-2025061511');
    assert.equal(decoded.cells[0]!.series[0]!.values.length, 3);
  });

  it('returns a reject with the reason instead of publishing', async () => {
    const { sink, ingest } = setup();
    const result = await ingest.execute({ feed: 'lightning', message: lightning({ latitude: 123 }) });
    assert.equal(result.kind, 'rejected');
    assert.equal(sink.published.length, 0);
  });

  it('decides again when another consumer records the same source id first', async () => {
    const { store, ingest } = setup();
    const realInsert = store.insert.bind(store);
    let raced = false;
    store.insert = async (key, record) => {
      if (!raced) {
        raced = true;
        // Someone else recorded the same content (and published it) between our find and our insert.
        await realInsert(key, record);
        return false;
      }
      return realInsert(key, record);
    };
    const result = await ingest.execute({ feed: 'lightning', message: lightning() });
    assert.equal(result.kind, 'duplicate');
  });
});
