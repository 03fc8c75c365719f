import assert from 'node:assert/strict';
import { newDeliveryState, type Delivery } from '../domain/delivery.js';
import type { LoggedAttempt } from '../domain/delivery-state.js';
import { fromAttemptDocument, toAttemptDocument } from './attempt-document.js';
import { storedDelivery, toDeliveryDocument } from './delivery-document.js';
import { fromHoldDocument, toHoldDocument } from './hold-document.js';

const at = (iso: string): Date => new Date(iso);

function delivery(): Delivery {
  return {
    id: 'ntf_1',
    accountId: 'acc-1',
    endpointId: 'ep_1',
    registrationId: 'reg-1',
    registrationKind: 'POINT',
    recipientId: 'rcp-1',
    eventKind: 'LIGHTNING',
    phase: 'START',
    eventId: 'evt-1',
    occurredAt: at('2026-11-28T10:00:00.000Z'),
    triggeredAt: at('2026-11-28T10:00:00.250Z'),
    payload: '{"type":"lightning.strike","finishedAt":"2026-11-28T10:00:00.000Z"}',
    callbackType: 'lightning.strike',
    ackId: 'ack-1',
    test: false,
    ...newDeliveryState(at('2026-11-28T10:00:01.000Z')),
  };
}

const logged: LoggedAttempt = {
  attempt: {
    attemptNumber: 2,
    trigger: 'manual',
    url: 'https://hooks.example.com/x?key=***',
    startedAt: at('2026-11-28T10:00:02.000Z'),
    durationMs: 31,
    responseStatus: 503,
    responseBody: '{"startedAt":"not a date to us"}',
    responseBodyTruncated: false,
    succeeded: false,
    error: 'HTTP 503',
    nextAttemptAt: at('2026-11-28T10:01:02.000Z'),
    failureClass: 'HTTP_5XX',
  },
  outcome: { status: 'pending', finishedAt: null, failureReason: null, publishFailure: false, endpointId: 'ep_1' },
};

describe('stored delivery and attempt documents (the packed form)', () => {
  it('a delivery keeps top-level only what queries use, and reads back whole, dates as Dates', () => {
    const doc = toDeliveryDocument(delivery());
    assert.deepEqual(Object.keys(doc).sort(), ['_id', 'accountId', 'callbackType', 'createdAt', 'packed', 'payload', 'registrationId']);
    // The payload is the customer's text: it stays a string, whatever it contains.
    assert.deepEqual(storedDelivery(doc), { ...delivery(), stateAttempt: 0 });
  });

  it('a field written top-level later wins over its packed value (the rare paths $set them)', () => {
    const doc = { ...toDeliveryDocument(delivery()), status: 'dead' as const, finishedAt: at('2026-11-28T11:00:00.000Z'), stateAttempt: 3 };
    const read = storedDelivery(doc);
    assert.equal(read.status, 'dead');
    assert.deepEqual(read.finishedAt, at('2026-11-28T11:00:00.000Z'));
    assert.equal(read.stateAttempt, 3);
    assert.equal(read.eventId, 'evt-1');
  });

  it('a delivery of the earlier form (every field top-level) reads as before', () => {
    const { id, ...rest } = delivery();
    assert.deepEqual(storedDelivery({ _id: id, ...rest, status: 'succeeded', attemptCount: 1 }), {
      ...delivery(),
      status: 'succeeded',
      attemptCount: 1,
      stateAttempt: 1,
    });
  });

  it('an attempt keeps its key fields and start top-level, and reads back whole', () => {
    const doc = toAttemptDocument('ntf_1', 'acc-1', logged);
    assert.deepEqual(Object.keys(doc).sort(), ['_id', 'accountId', 'deliveryId', 'packed', 'responseBody', 'startedAt']);
    assert.doesNotMatch(doc.packed ?? '', /not a date to us/, 'the response body is not packed: reads of many attempts leave it out');
    assert.equal(doc._id, 'ntf_1#2');
    assert.deepEqual(fromAttemptDocument(doc), logged);
  });

  it('an attempt of the earlier form reads as before, and a top-level override (a projection) wins', () => {
    const earlier = { _id: 'ntf_1#2', deliveryId: 'ntf_1', accountId: 'acc-1', ...logged.attempt, outcome: logged.outcome };
    assert.deepEqual(fromAttemptDocument(earlier), logged);
    const listed = fromAttemptDocument({ ...toAttemptDocument('ntf_1', 'acc-1', logged), responseBody: '' });
    assert.equal(listed.attempt.responseBody, '');
    assert.equal(listed.attempt.failureClass, 'HTTP_5XX');
  });

  it('a hold keeps its deliveries packed, and a hold of the earlier form (an array) reads alike', () => {
    const held = [
      { deliveryId: 'ntf_1', accountId: 'acc-1', endpointId: 'ep_1' },
      { deliveryId: 'ntf_2', accountId: 'acc-2', endpointId: 'ep_2' },
    ];
    const until = at('2026-11-28T10:05:00.000Z');
    const doc = toHoldDocument('n1#a#0', 'n1', until, held);
    assert.equal(typeof doc.deliveries, 'string');
    const expected = { id: 'n1#a#0', owner: 'n1', leaseUntil: until, deliveries: held };
    assert.deepEqual(fromHoldDocument(doc), expected);
    assert.deepEqual(fromHoldDocument({ ...doc, deliveries: held }), expected);
  });
});
