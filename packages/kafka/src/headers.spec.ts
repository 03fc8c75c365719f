import assert from 'node:assert/strict';
import { headersAsText, parseEventHeaders, PROTOBUF_CONTENT_TYPE } from './headers.js';

describe('parseEventHeaders', () => {
  it('reads the event headers from Buffers as kafkajs delivers them', () => {
    const result = parseEventHeaders({
      'event-type': Buffer.from('stormhook.alarm.v1.AlarmTriggered'),
      'event-id': Buffer.from('evt_1'),
      'schema-version': Buffer.from('3'),
      'content-type': Buffer.from('application/json'),
      traceparent: Buffer.from('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'),
      'x-extra': 'yes',
    });
    assert.ok(result.ok);
    assert.equal(result.headers.eventType, 'stormhook.alarm.v1.AlarmTriggered');
    assert.equal(result.headers.eventId, 'evt_1');
    assert.equal(result.headers.schemaVersion, 3);
    assert.equal(result.headers.contentType, 'application/json');
    assert.equal(result.headers.traceparent, '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    assert.equal(result.headers.tracestate, undefined);
    assert.equal(result.headers.all['x-extra'], 'yes');
  });

  it('defaults schema version 1 and protobuf content', () => {
    const result = parseEventHeaders({ 'event-type': 'a.b', 'event-id': 'evt_2' });
    assert.ok(result.ok);
    assert.equal(result.headers.schemaVersion, 1);
    assert.equal(result.headers.contentType, PROTOBUF_CONTENT_TYPE);
  });

  it('refuses records that cannot be routed or de-duplicated', () => {
    assert.deepEqual(parseEventHeaders(undefined), { ok: false, reason: 'missing header event-type' });
    assert.deepEqual(parseEventHeaders({ 'event-type': 'a.b', 'event-id': '  ' }), { ok: false, reason: 'missing header event-id' });
    const long = parseEventHeaders({ 'event-type': 'a.b', 'event-id': 'x'.repeat(201) });
    assert.equal(long.ok, false);
  });

  it('refuses a schema version that is not a positive integer', () => {
    for (const bad of ['0', '-1', '1.5', 'v1', '']) {
      const result = parseEventHeaders({ 'event-type': 'a.b', 'event-id': 'evt_3', 'schema-version': bad });
      assert.equal(result.ok, false, bad);
      if (!result.ok) assert.match(result.reason, /schema-version/);
    }
  });
});

describe('headersAsText', () => {
  it('takes the first of repeated headers and skips empty ones', () => {
    assert.deepEqual(headersAsText({ a: [Buffer.from('1'), '2'], b: undefined, c: 'x' }), { a: '1', c: 'x' });
  });
});
