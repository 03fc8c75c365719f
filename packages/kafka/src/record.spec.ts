import assert from 'node:assert/strict';
import type { KafkaMessage } from 'kafkajs';
import { deadLetterMessage } from './dead-letter.js';
import { newEventId } from './ids.js';
import { nextOffset, toConsumedRecord } from './record.js';
import { TopicNames } from './topics.js';

function message(overrides: Partial<KafkaMessage> = {}): KafkaMessage {
  return {
    key: Buffer.from('area-34'),
    value: Buffer.from([1, 2, 3]),
    timestamp: '1700000000000',
    attributes: 0,
    offset: '41',
    headers: { 'event-type': Buffer.from('t'), 'event-id': Buffer.from('evt_x') },
    ...overrides,
  } as KafkaMessage;
}

describe('toConsumedRecord', () => {
  it('gives the handler decoded key, raw value, typed headers and the timestamp', () => {
    const result = toConsumedRecord(TopicNames.WeatherLightning, 2, message());
    assert.ok(result.ok);
    assert.equal(result.record.topic, TopicNames.WeatherLightning);
    assert.equal(result.record.partition, 2);
    assert.equal(result.record.offset, '41');
    assert.equal(result.record.key, 'area-34');
    assert.deepEqual([...result.record.value], [1, 2, 3]);
    assert.equal(result.record.headers.eventId, 'evt_x');
    assert.equal(result.record.timestamp.getTime(), 1_700_000_000_000);
  });

  it('keeps a null key and refuses a record without value or headers', () => {
    const keyless = toConsumedRecord(TopicNames.WeatherLightning, 0, message({ key: null }));
    assert.ok(keyless.ok);
    assert.equal(keyless.record.key, null);
    assert.deepEqual(toConsumedRecord(TopicNames.WeatherLightning, 0, message({ value: null })), { ok: false, reason: 'record has no value' });
    assert.equal(toConsumedRecord(TopicNames.WeatherLightning, 0, message({ headers: {} })).ok, false);
  });
});

describe('nextOffset', () => {
  it('adds one without losing int64 precision', () => {
    assert.equal(nextOffset('0'), '1');
    assert.equal(nextOffset('9007199254740993'), '9007199254740994');
  });
});

describe('deadLetterMessage', () => {
  it('keeps key, value and headers and adds reason and source coordinates', () => {
    const original = message();
    const dead = deadLetterMessage(original, { topic: 'p.feed.lightning.v1', partition: 2, groupId: 'ingest' }, 'bad strike', new Date('2025-01-02T03:04:05Z'));
    assert.equal(dead.key, original.key);
    assert.equal(dead.value, original.value);
    assert.deepEqual(dead.headers, {
      ...original.headers,
      'deadletter-reason': 'bad strike',
      'deadletter-source-topic': 'p.feed.lightning.v1',
      'deadletter-source-partition': '2',
      'deadletter-source-offset': '41',
      'deadletter-consumer-group': 'ingest',
      'deadletter-failed-at': '2025-01-02T03:04:05.000Z',
    });
  });

  it('bounds the reason', () => {
    const dead = deadLetterMessage(message(), { topic: 't', partition: 0, groupId: 'g' }, 'x'.repeat(5000), new Date());
    assert.equal(String(dead.headers?.['deadletter-reason']).length, 1003);
  });
});

describe('newEventId', () => {
  it('is prefixed, unique and ordered by time', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newEventId()));
    assert.equal(ids.size, 1000);
    for (const id of ids) assert.match(id, /^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.ok(newEventId(1_000) < newEventId(2_000));
  });

  it('encodes the time as ULID does and draws fresh random bits across refills of its pool', () => {
    // The ULID specification's example: ulid(1469918176385) starts with 01ARYZ6S41.
    assert.equal(newEventId(1_469_918_176_385).slice(4, 14), '01ARYZ6S41');
    const randoms = new Set(Array.from({ length: 5_000 }, () => newEventId(0).slice(14)));
    assert.equal(randoms.size, 5_000, 'no random part repeats over ten pool refills');
    const firstChars = new Set([...randoms].map((r) => r[0]));
    assert.ok(firstChars.size >= 30, `the high bits vary too (${firstChars.size} distinct first characters)`);
  });
});
