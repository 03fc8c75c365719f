import assert from 'node:assert/strict';
import { HashMemoryBudget, HashQueueBusy } from './hash-memory-budget.js';

/** A unit of work that finishes when told to. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('HashMemoryBudget queue bounds', () => {
  it('refuses a hash at once when the queue of waiting hashes is full', async () => {
    const budget = new HashMemoryBudget(10, { maxWaiting: 2, maxWaitMs: 60_000 });
    const running = gate();
    const first = budget.run(10, () => running.promise);
    const waiting = [budget.run(10, async () => 'a'), budget.run(10, async () => 'b')];
    assert.deepEqual(budget.state, { running: 1, waiting: 2, bytesInUse: 10 });
    await assert.rejects(
      budget.run(10, async () => 'c'),
      (error: unknown) => error instanceof HashQueueBusy && error.reason === 'queue-full',
    );
    running.open();
    await first;
    assert.deepEqual(await Promise.all(waiting), ['a', 'b'], 'the queued ones still run, in order');
  });

  it('gives up a wait past its deadline, and lets the smaller hashes behind it go', async () => {
    const budget = new HashMemoryBudget(10, { maxWaiting: 8, maxWaitMs: 50 });
    const running = gate();
    const first = budget.run(6, () => running.promise);
    const big = budget.run(10, async () => 'big');
    const small = budget.run(4, async () => 'small');
    await assert.rejects(big, (error: unknown) => error instanceof HashQueueBusy && error.reason === 'wait-expired');
    assert.equal(await small, 'small', 'the 4 bytes fit beside the 6 once the big one left the head');
    running.open();
    await first;
    assert.deepEqual(budget.state, { running: 0, waiting: 0, bytesInUse: 0 });
  });
});
