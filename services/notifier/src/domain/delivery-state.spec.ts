import assert from 'node:assert/strict';
import { newDeliveryState, type Delivery, type DeliveryAttempt } from './delivery.js';
import { foldDelivery, type LoggedAttempt } from './delivery-state.js';

const at = (s: number): Date => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

const stored = (over: Partial<Delivery> = {}, stateAttempt = 0): Delivery & { stateAttempt: number } => ({
  id: 'ntf_1',
  accountId: 'acc',
  endpointId: 'ep_1',
  registrationId: 'r',
  registrationKind: 'FORECAST',
  recipientId: 'u',
  eventKind: 'FORECAST',
  phase: 'START',
  eventId: 'e',
  occurredAt: at(0),
  triggeredAt: at(0),
  payload: '{}',
  ackId: 'ntf_1',
  test: false,
  ...newDeliveryState(at(0)),
  ...over,
  stateAttempt,
});

function logged(n: number, status: Delivery['status'], extra: Partial<DeliveryAttempt> = {}): LoggedAttempt {
  const failed = status !== 'succeeded';
  return {
    attempt: {
      attemptNumber: n,
      trigger: 'scheduled',
      url: 'u',
      startedAt: at(n * 10),
      durationMs: 5,
      responseStatus: failed ? 500 : 200,
      responseBody: '',
      responseBodyTruncated: false,
      succeeded: !failed,
      error: failed ? 'HTTP 500' : null,
      nextAttemptAt: status === 'pending' ? at(n * 10 + 5) : null,
      ...extra,
    },
    outcome: {
      status,
      finishedAt: status === 'pending' ? null : at(n * 10 + 1),
      failureReason: status === 'dead' ? 'retries-exhausted' : null,
      publishFailure: status === 'dead',
      endpointId: 'ep_1',
    },
  };
}

describe('foldDelivery: a delivery document plus its append-only attempt log', () => {
  it('takes the state of the latest attempt, in attempt order whatever the log order', () => {
    const d = foldDelivery(stored(), [logged(2, 'succeeded'), logged(1, 'pending')]);
    assert.equal(d.status, 'succeeded');
    assert.equal(d.attemptCount, 2);
    assert.equal(d.lastResponseStatus, 200);
    assert.deepEqual(
      d.attempts.map((a) => a.attemptNumber),
      [1, 2],
    );
    assert.deepEqual(d.finishedAt, at(21));
  });

  it('keeps a pending retry with its next attempt time', () => {
    const d = foldDelivery(stored(), [logged(1, 'pending')]);
    assert.equal(d.status, 'pending');
    assert.deepEqual(d.nextAttemptAt, at(15));
    assert.equal(d.lastError, 'HTTP 500');
  });

  it('lets a state written on the document after the latest attempt win (reopened, event published)', () => {
    const reopened = foldDelivery(stored({ status: 'pending', attemptCount: 1, failureEventPending: true }, 1), [logged(1, 'dead')]);
    assert.equal(reopened.status, 'pending');
    const published = foldDelivery(stored({ status: 'dead', attemptCount: 1, failureEventPending: false }, 1), [logged(1, 'dead')]);
    assert.equal(published.failureEventPending, false);
  });

  it('lets an attempt made after that state win again (the manual redelivery succeeded)', () => {
    const d = foldDelivery(stored({ status: 'pending', attemptCount: 1 }, 1), [logged(1, 'dead'), logged(2, 'succeeded', { trigger: 'manual' })]);
    assert.equal(d.status, 'succeeded');
    assert.equal(d.failureEventPending, false);
  });

  it('is the document alone when nothing was attempted', () => {
    const d = foldDelivery(stored({ status: 'dead', failureReason: 'no-endpoint' }), []);
    assert.equal(d.status, 'dead');
    assert.equal(d.failureReason, 'no-endpoint');
    assert.deepEqual(d.attempts, []);
  });
});
