import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { AttemptSlots, type SlotLimits } from './attempt-slots.js';

const LIMITS: SlotLimits = { concurrency: 3, perEndpointConcurrency: 2, timingOutEndpointConcurrency: 1, slotWaitMs: 200 };

/** Open slots, and how often they said a slot was freed. */
function slots(limits: SlotLimits = LIMITS): { s: AttemptSlots; freed: () => number } {
  let freed = 0;
  const s = new AttemptSlots(limits, () => freed++);
  s.open();
  return { s, freed: () => freed };
}

/** Whether `promise` has settled by the time the event loop has turned a few times. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await sleep(5);
  return done;
}

describe('AttemptSlots: what may run at once on one instance', () => {
  it('holds an endpoint to its share and the instance to its concurrency', () => {
    const { s } = slots();
    s.reserve('a');
    s.reserve('a');
    assert.equal(s.room('a'), 0);
    assert.deepEqual(s.saturated(), ['a']);
    assert.equal(s.room('b'), 2);
    assert.equal(s.free, 1);
    s.unreserve('a');
    assert.equal(s.room('a'), 1);
    assert.deepEqual(s.saturated(), []);
    assert.equal(s.free, 2);
  });

  it('makes a fresh delivery wait while every slot of the instance is busy (back-pressure), then gives it the freed one', async () => {
    const { s, freed } = slots();
    for (const id of ['a', 'b', 'c']) assert.equal(await s.reserveFresh(id, 1_000), true);
    const waiting = s.reserveFresh('d', 1_000);
    assert.equal(await settled(waiting), false, 'no slot of the instance is free');
    s.requestEnded('a', 10, false);
    assert.equal(await settled(waiting), false, 'the endpoint slot alone is not enough: the attempt is still being recorded');
    s.releaseGlobal();
    assert.equal(await waiting, true);
    assert.equal(s.free, 0);
    assert.ok(freed() >= 2, 'each release told the scheduler');
  });

  it('waits for a busy endpoint whose requests end well inside their timeout, not for a slow one', async () => {
    const busy = slots().s;
    busy.reserve('a');
    busy.reserve('a');
    busy.requestEnded('a', 10, false);
    busy.releaseGlobal();
    busy.reserve('a');
    const waiting = busy.reserveFresh('a', 1_000);
    assert.equal(await settled(waiting), false, 'a busy endpoint is waited for');
    busy.requestEnded('a', 10, false);
    assert.equal(await waiting, true);

    const slow = slots().s;
    slow.reserve('a');
    slow.reserve('a');
    slow.requestEnded('a', 800, false); // more than half the 1 s timeout
    slow.releaseGlobal();
    slow.reserve('a');
    const started = Date.now();
    assert.equal(await slow.reserveFresh('a', 1_000), false);
    assert.ok(Date.now() - started < 100, 'a slow endpoint is not waited for: its work goes to the queue at once');
  });

  it('gives up on a full endpoint after slotWaitMs', async () => {
    const { s } = slots();
    s.reserve('a');
    s.reserve('a');
    s.requestEnded('a', 10, false);
    s.reserve('a');
    const started = Date.now();
    assert.equal(await s.reserveFresh('a', 1_000), false);
    assert.ok(Date.now() - started >= LIMITS.slotWaitMs - 20, `waited ${Date.now() - started} ms`);
  });

  it('probes an endpoint whose last request timed out with fewer slots until one ends in time', () => {
    const { s } = slots();
    s.reserve('a');
    s.requestEnded('a', 1_000, true);
    s.releaseGlobal();
    assert.equal(s.room('a'), 1, 'timingOutEndpointConcurrency');
    s.reserve('a');
    assert.equal(s.room('a'), 0);
    s.requestEnded('a', 20, false);
    s.releaseGlobal();
    assert.equal(s.room('a'), 2, 'its full share again');
  });

  it("keeps an endpoint's probe limit when no request was made", () => {
    const { s } = slots();
    s.reserve('a');
    s.requestEnded('a', 1_000, true);
    s.releaseGlobal();
    s.reserve('a');
    s.requestEnded('a', 1); // a stale entry: no request
    s.releaseGlobal();
    assert.equal(s.room('a'), 1);
  });

  it('refuses fresh deliveries before it is opened and after it is closed, and releases those waiting', async () => {
    const closed = new AttemptSlots(LIMITS, () => undefined);
    assert.equal(await closed.reserveFresh('a', 1_000), false);

    const { s } = slots();
    for (const id of ['a', 'b', 'c']) s.reserve(id);
    s.reserve('a');
    const forInstance = s.reserveFresh('d', 1_000);
    const forEndpoint = s.reserveFresh('a', 1_000);
    assert.equal(await settled(forInstance), false);
    s.close();
    assert.equal(await forInstance, false);
    assert.equal(await forEndpoint, false);
  });
});
