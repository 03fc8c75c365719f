import assert from 'node:assert/strict';
import type { LoggedAttempt } from '../domain/delivery-state.js';
import { alarmEvent, startHarness, type NotifierHarness } from '../test-support/harness.js';
import { deliveryFromEvent } from '../usecases/accept-alarm.js';
import { attemptKey, type AttemptDocument } from './attempt-document.js';
import { COLLECTIONS } from './collections.js';
import type { DeliveryDocument } from './delivery-document.js';

// Deliveries and attempts written before the packed form sit beside new ones in a running database:
// every read of the store (by key, the list, a recovery's choice) must give the same for both.
describe('the delivery store reads both stored forms alike (FerretDB)', function () {
  this.timeout(60_000);
  let h: NotifierHarness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
  });

  const failed = (startedAt: Date): LoggedAttempt => ({
    attempt: {
      attemptNumber: 1,
      trigger: 'scheduled',
      url: 'https://hooks.example.com/packed',
      startedAt,
      durationMs: 12,
      responseStatus: 500,
      responseBody: 'no',
      responseBodyTruncated: false,
      succeeded: false,
      error: 'HTTP 500',
      nextAttemptAt: null,
      failureClass: 'HTTP_5XX',
    },
    outcome: {
      status: 'dead',
      finishedAt: new Date(startedAt.getTime() + 12),
      failureReason: 'retries-exhausted',
      publishFailure: false,
      endpointId: 'ep_packed',
    },
  });

  it('get, list and recovery candidates agree for a delivery of each form', async () => {
    const account = 'acc-packed';
    const created = new Date(Date.now() - 60_000);
    const fresh = deliveryFromEvent(alarmEvent(account), 'ep_packed', created);
    const earlier = deliveryFromEvent(alarmEvent(account), 'ep_packed', new Date(created.getTime() - 1_000));

    // The new form, through the store.
    assert.equal(await h.store.insert(fresh), 'inserted');
    await h.store.recordAttempt(fresh.id, account, failed(new Date(created.getTime() + 100)));
    // The earlier form, as its code wrote it: every field top-level.
    const { id, ...fields } = earlier;
    await h.mongo.db.collection<DeliveryDocument>(COLLECTIONS.deliveries).insertOne({ _id: id, ...fields, stateAttempt: 0 });
    const log = failed(new Date(created.getTime() - 900));
    await h.mongo.db
      .collection<AttemptDocument>(COLLECTIONS.attempts)
      .insertOne({ _id: attemptKey(id, 1), deliveryId: id, accountId: account, ...log.attempt, outcome: log.outcome });

    const stored = await h.mongo.db.collection<DeliveryDocument>(COLLECTIONS.deliveries).findOne({ _id: fresh.id });
    assert.ok(stored?.packed, 'the new delivery is stored packed');

    for (const d of [fresh, earlier]) {
      const read = await h.store.get(d.id);
      assert.ok(read);
      assert.equal(read.status, 'dead');
      assert.equal(read.attemptCount, 1);
      assert.equal(read.failureReason, 'retries-exhausted');
      assert.equal(read.payload, d.payload);
      assert.deepEqual(read.occurredAt, d.occurredAt);
      assert.equal(read.attempts[0]?.failureClass, 'HTTP_5XX');
      assert.ok(read.attempts[0]?.startedAt instanceof Date);
    }

    const page = await h.store.list({ accountId: account, pageNumber: 0, pageSize: 10 });
    assert.deepEqual(
      page.items.map((d) => [d.id, d.status, d.lastFailureClass, d.registrationId]),
      [fresh, earlier].map((d) => [d.id, 'dead', 'HTTP_5XX', d.registrationId]),
    );
    const deadOnly = await h.store.list({ accountId: account, status: 'dead', failureClass: 'HTTP_5XX', pageNumber: 0, pageSize: 10 });
    assert.equal(deadOnly.total, 2);

    const candidates = await h.store.recoveryCandidates(account, new Date(created.getTime() - 10_000), new Date(created.getTime() + 10_000));
    assert.deepEqual(
      candidates.map((c) => [c.id, c.status, c.attemptCount, c.eventId, c.endpointId]),
      [earlier, fresh].map((d) => [d.id, 'dead', 1, d.eventId, 'ep_packed']),
    );
  });
});
