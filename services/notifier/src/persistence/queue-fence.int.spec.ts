import assert from 'node:assert/strict';
import { queueEntry } from '../ports/delivery-store.js';
import { alarmEvent, endpointConfig, startHarness, type NotifierHarness } from '../test-support/harness.js';
import { deliveryFromEvent } from '../usecases/accept-alarm.js';
import { COLLECTIONS } from './collections.js';

// A holder whose lease ran out while its request was slow must not undo what the next attempt wrote
// (issue 17: the delivery worker's writes fenced by its lease). Real FerretDB, the store's own writes.
describe('queue writes are fenced by the attempt their writer holds (FerretDB)', function () {
  this.timeout(60_000);
  let h: NotifierHarness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
  });

  async function queued(account: string) {
    const created = await h.endpoints.create(account, endpointConfig('https://hooks.example.com/fence'));
    assert.ok(created.ok);
    const now = new Date(Date.now() - 1_000);
    const delivery = deliveryFromEvent(alarmEvent(account), created.value.endpoint.id, now);
    await h.store.insert(delivery);
    await h.store.enqueue(queueEntry(delivery, created.value.endpoint.id, now, {}));
    const entry = await h.store.getQueueEntry(delivery.id);
    assert.ok(entry);
    return { id: delivery.id, first: entry.attempt };
  }
  const raw = (id: string) => h.mongo.db.collection<{ _id: string; nextAttempt?: number; outbox?: boolean }>(COLLECTIONS.queue).findOne({ _id: id });

  it('a late holder of attempt n cannot dequeue, reschedule or park an entry that attempt n+1 rescheduled', async () => {
    const { id, first } = await queued('acc-fence-1');
    const later = new Date(Date.now() + 60_000);
    // Attempt n+1 (taken over after n's lease ran out) fails and reschedules to n+2.
    await h.store.reschedule(id, first + 1, later);
    assert.equal((await raw(id))?.nextAttempt, first + 2);
    // Then the slow holder of attempt n finishes.
    await h.store.dequeue([{ deliveryId: id, attempt: first }]);
    await h.store.reschedule(id, first, new Date());
    await h.store.parkForOutbox(id, first);
    const after = await raw(id);
    assert.ok(after, 'the entry of the pending delivery is still queued');
    assert.equal(after.nextAttempt, first + 2);
    assert.notEqual(after.outbox, true);
    // The holder of n+2 still can.
    await h.store.dequeue([{ deliveryId: id, attempt: first + 2 }]);
    assert.equal(await raw(id), null);
  });

  it('the holder of the current attempt reschedules, parks and dequeues as before', async () => {
    const { id, first } = await queued('acc-fence-2');
    await h.store.reschedule(id, first, new Date(Date.now() + 60_000));
    assert.equal((await raw(id))?.nextAttempt, first + 1);
    await h.store.parkForOutbox(id, first + 1);
    assert.equal((await raw(id))?.outbox, true);
  });
});
