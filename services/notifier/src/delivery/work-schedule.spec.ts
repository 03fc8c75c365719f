import assert from 'node:assert/strict';
import { queueEntry, type QueueEntry } from '../ports/delivery-store.js';
import { WorkSchedule } from './work-schedule.js';

const entry = (id: string, endpointId: string, dueAt: number, over: Partial<QueueEntry> = {}): QueueEntry =>
  queueEntry({ id, accountId: 'acc' }, endpointId, new Date(dueAt), over);

describe('WorkSchedule: due work from memory', () => {
  it('takes due entries oldest first, within each endpoint room and the free slots, and forgets them', () => {
    const s = new WorkSchedule();
    s.put(entry('a3', 'A', 30));
    s.put(entry('a1', 'A', 10));
    s.put(entry('a2', 'A', 20));
    s.put(entry('b1', 'B', 15));
    s.put(entry('later', 'B', 500));
    const taken = s.take(100, 10, (id) => (id === 'A' ? 2 : 5));
    assert.deepEqual(
      taken.map((w) => w.entry.deliveryId),
      ['a1', 'b1', 'a2'],
    );
    assert.equal(s.size, 2, 'a3 (no room) and the entry not due yet stay');
    assert.deepEqual(
      s.take(100, 1, () => 5).map((w) => w.entry.deliveryId),
      ['a3'],
    );
  });

  it('leaves held and outbox entries alone and says when the next one falls due', () => {
    const s = new WorkSchedule();
    s.put(entry('held', 'A', 10, { leaseUntil: new Date(200) }));
    s.put(entry('parked', 'A', 10, { outbox: true }));
    s.put(entry('soon', 'B', 150));
    assert.deepEqual(
      s.take(100, 10, () => 5),
      [],
    );
    assert.equal(s.nextDueAt(100), 150);
  });

  it('skips an endpoint without room whole, and leaves it out of the next due time', () => {
    const s = new WorkSchedule();
    for (let i = 0; i < 500; i++) s.put(entry(`dead-${i}`, 'DEAD', i === 0 ? 120 : 10));
    s.put(entry('live', 'LIVE', 10));
    s.put(entry('later', 'LIVE', 300));
    const asked = new Map<string, number>();
    const room = (id: string): number => (asked.set(id, (asked.get(id) ?? 0) + 1), id === 'DEAD' ? 0 : 5);
    assert.deepEqual(
      s.take(100, 10, room).map((w) => w.entry.deliveryId),
      ['live'],
    );
    assert.equal(asked.get('DEAD'), 1, 'the full endpoint is asked once, not once per entry');
    assert.equal(s.nextDueAt(100, room), 300, "the full endpoint's entry due at 120 waits for a freed slot");
    assert.equal(s.nextDueAt(100), 120);
    assert.equal(s.size, 501);
  });

  it('moves an entry to its new endpoint when it is put again', () => {
    const s = new WorkSchedule();
    s.put(entry('d', 'A', 10));
    s.put(entry('d', 'B', 10));
    assert.equal(s.size, 1);
    assert.deepEqual(
      s.take(100, 5, (id) => (id === 'A' ? 5 : 0)),
      [],
    );
    assert.deepEqual(
      s.take(100, 5, () => 5).map((w) => w.entry.endpointId),
      ['B'],
    );
    assert.equal(s.size, 0);
  });

  it('keeps the delivery it was given when a read brings the same attempt back, not a newer one', () => {
    const s = new WorkSchedule();
    const delivery = { id: 'd' } as never;
    s.put(entry('d', 'A', 10), delivery);
    s.merge(entry('d', 'A', 10));
    assert.equal(s.take(100, 1, () => 1)[0]?.delivery, delivery);
    s.put(entry('e', 'A', 10), delivery);
    s.merge(entry('e', 'A', 10, { attempt: 2 }));
    assert.equal(s.take(100, 1, () => 1)[0]?.delivery, undefined, 'another attempt: read it again');
  });
});
