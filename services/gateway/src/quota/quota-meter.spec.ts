import assert from 'node:assert/strict';
import { createLogger } from '@stormhook/logger';
import { MAX_RESET_SECONDS, QuotaMeter, quotaHeaders, type MeteredWindow, type QuotaState } from './quota-meter.js';
import { FakeShareTable } from '../test-support/fake-quota-shares.js';

const logger = createLogger({ service: 'quota-spec', level: 'silent' });
const START = Date.UTC(2026, 10, 1);
const window = (limit: number): MeteredWindow => ({
  accountId: 'acc-1',
  service: 'FORECAST',
  limit,
  start: new Date(START),
  end: new Date(START + 30 * 86_400_000),
});
const KEY = `acc-1|FORECAST|${START}`;

describe('QuotaMeter', () => {
  let clock: number;
  let table: FakeShareTable;
  const meter = (instance: string) => new QuotaMeter(table.port(instance), { syncIntervalMs: 1_000, clockSkewMs: 2_000, logger, now: () => clock });

  beforeEach(() => {
    clock = START + 86_400_000;
    table = new FakeShareTable();
  });

  it('decides from memory: after the first call of a counter loads it, calls touch no store until the sync', async () => {
    const m = meter('a');
    const first = await m.consume(window(1000));
    assert.equal(first.remaining, 999);
    assert.equal(table.calls, 1, 'one load');
    for (let i = 0; i < 500; i++) await m.consume(window(1000));
    assert.equal(table.calls, 1);
    await m.sync();
    assert.equal(table.calls, 3, 'one write and one read');
    assert.equal(table.countOf(KEY), 501);
  });

  it('lets exactly the limit through on one instance and answers the state of a spent quota', async () => {
    const m = meter('a');
    const states: QuotaState[] = [];
    for (let i = 0; i < 7; i++) states.push(await m.consume(window(5)));
    assert.deepEqual(
      states.map((s) => s.allowed),
      [true, true, true, true, true, false, false],
    );
    assert.deepEqual(
      states.map((s) => s.remaining),
      [4, 3, 2, 1, 0, 0, 0],
    );
    assert.equal(states[6]!.resetSeconds, 29 * 86_400);
    assert.equal(states[6]!.windowSeconds, 30 * 86_400);
  });

  it('shares one load among the calls that arrive while a counter is loading', async () => {
    const m = meter('a');
    const burst = await Promise.all(Array.from({ length: 12 }, () => m.consume(window(5))));
    assert.equal(burst.filter((s) => s.allowed).length, 5);
    assert.equal(table.calls, 1);
  });

  it('gives a refunded call back, and the write is the absolute count', async () => {
    const m = meter('a');
    for (let i = 0; i < 5; i++) await m.consume(window(5));
    assert.equal((await m.consume(window(5))).allowed, false);
    await m.refund(window(5));
    assert.equal((await m.consume(window(5))).allowed, true);
    await m.refund(window(5));
    await m.sync();
    assert.equal(table.docs.get(`${KEY}|a`)?.count, 4);
  });

  it("counts the other instances' shares once synced, and exceeds the limit by no more than what each did within the sync lag", async () => {
    const a = meter('a');
    const b = meter('b');
    // Both start the counter before either has written anything: each sees only itself.
    for (let i = 0; i < 6; i++) await a.consume(window(10));
    for (let i = 0; i < 6; i++) await b.consume(window(10));
    await a.sync();
    clock += 1_000;
    await b.sync(); // b writes its 6 and reads a's 6
    clock += 1_000;
    await a.sync(); // a reads b's 6
    const more = [await a.consume(window(10)), await b.consume(window(10))];
    assert.deepEqual(
      more.map((s) => s.allowed),
      [false, false],
    );
    assert.equal(table.countOf(KEY), 12, 'overshoot of 2 = the calls made between syncs');
    assert.equal(more[0]!.remaining, 0);
  });

  it('keeps the newest value of a share whatever order the reads arrive in', async () => {
    const a = meter('a');
    const b = meter('b');
    await a.consume(window(100));
    for (let i = 0; i < 3; i++) await b.consume(window(100));
    await b.sync();
    await a.sync();
    assert.equal((await a.consume(window(100))).remaining, 100 - 5);
    // A read reaching back over b's share again (clock skew allowance) does not count it twice.
    clock += 500;
    await a.sync();
    assert.equal((await a.consume(window(100))).remaining, 100 - 6);
  });

  it('counts the shares of an earlier process (a restart) and of dead instances', async () => {
    const before = meter('old');
    for (let i = 0; i < 4; i++) await before.consume(window(5));
    await before.stop(); // graceful stop flushes
    const restarted = meter('new');
    const answer = await restarted.consume(window(5));
    assert.equal(answer.remaining, 0);
    assert.equal((await restarted.consume(window(5))).allowed, false);
  });

  it('takes back its own stored share when an idle counter is loaded again', async () => {
    const m = meter('a');
    for (let i = 0; i < 3; i++) await m.consume(window(10));
    await m.sync();
    clock += 11 * 60_000; // idle past 10 min: forgotten at the next sync
    await m.sync();
    assert.equal(m.size, 0);
    assert.equal((await m.consume(window(10))).remaining, 6);
    await m.sync();
    assert.equal(table.docs.get(`${KEY}|a`)?.count, 4);
  });

  it('forgets counters whose window ended, once written', async () => {
    const m = meter('a');
    await m.consume(window(10));
    clock = START + 30 * 86_400_000;
    await m.sync();
    assert.equal(m.size, 0);
    assert.equal(table.docs.get(`${KEY}|a`)?.count, 1);
  });

  it('keeps counting while the database is down and writes the counts once it is back', async () => {
    const m = meter('a');
    await m.consume(window(10));
    table.failing = true;
    await m.consume(window(10));
    await m.sync(); // fails, logged, not thrown
    table.failing = false;
    await m.sync();
    assert.equal(table.countOf(KEY), 2);
  });

  it('fails the call (the caller answers 503) when a counter cannot be loaded, and loads it at the next call', async () => {
    const m = meter('a');
    table.failing = true;
    await assert.rejects(m.consume(window(10)), /database down/);
    table.failing = false;
    assert.equal((await m.consume(window(10))).remaining, 9);
  });

  it('with a local allowance, lets through no more than the allowance until the other instances can have read it', async () => {
    const m = meter('a'); // sync every 1 s: seen by all 2 s after a write
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await m.consume(window(100), 3));
    assert.deepEqual(
      answers.map((s) => s.allowed),
      [true, true, true, false, false],
    );
    assert.equal(answers[3]!.resetSeconds, 2, 'ask again once the calls are seen');
    assert.equal(answers[3]!.remaining, 97, 'the limit itself is not spent');
    await m.sync(); // written, but another instance may not have read it yet
    clock += 1_999;
    assert.equal((await m.consume(window(100), 3)).allowed, false);
    clock += 1;
    assert.equal((await m.consume(window(100), 3)).allowed, true, 'two intervals after the write every instance has read it');
  });

  it('bounds the overshoot of R instances by (R - 1) × the local allowance, however fast the calls come', async () => {
    const meters = ['a', 'b', 'c'].map((id) => meter(id));
    let served = 0;
    // Each instance takes calls as fast as they come; syncs run every 1 s of the clock, in turn.
    for (let tick = 0; tick < 200; tick++) {
      for (const m of meters) for (let k = 0; k < 20; k++) if ((await m.consume(window(100), 10)).allowed) served++;
      clock += 250;
      if (tick % 4 === 3) for (const m of meters) await m.sync();
    }
    assert.ok(served >= 100, `${served}: the limit is usable`);
    assert.ok(served <= 100 + 2 * 10, `${served} served: over limit + (R - 1) × allowance`);
  });

  it('announcing presence: a lone replica lets a burst through up to the limit; the allowance binds once another one is seen running', async () => {
    const announcing = (instance: string) =>
      new QuotaMeter(table.port(instance), { syncIntervalMs: 1_000, clockSkewMs: 0, announcePresence: true, logger, now: () => clock });
    const a = announcing('a');
    await a.sync();
    const alone = [];
    for (let i = 0; i < 5; i++) alone.push((await a.consume(window(100), 2)).allowed);
    assert.deepEqual(alone, [true, true, true, true, true]);
    const b = announcing('b');
    await b.sync(); // b's presence
    await a.sync(); // read by a
    assert.equal((await a.consume(window(100), 2)).allowed, false, "a's 5 are not yet seen by b: over the allowance");
    clock += 2_000;
    await a.sync(); // a's own presence and count seen by b by now; b's presence is 2 s old
    assert.equal((await a.consume(window(100), 2)).allowed, true);
    clock += 10_000; // b stopped writing: gone after two horizons
    assert.equal((await a.consume(window(100), 2)).allowed, true);
    assert.equal((await a.consume(window(100), 2)).allowed, true);
    assert.equal((await a.consume(window(100), 2)).allowed, true, 'alone again: no allowance');
  });

  it('learning from reads: makes no load per counter, learns the counters other instances started, and reads back over the longest window at start', async () => {
    const learning = (instance: string) =>
      new QuotaMeter(table.port(instance), { syncIntervalMs: 1_000, clockSkewMs: 0, learnFromReads: { lookbackMs: 3_600_000 }, logger, now: () => clock });
    const earlier = learning('earlier');
    for (let i = 0; i < 4; i++) await earlier.consume(window(10));
    await earlier.stop();
    const calls = table.calls;
    const a = learning('a');
    a.start();
    assert.equal((await a.consume(window(10))).remaining, 5, "the earlier process's 4 count");
    assert.equal(table.calls, calls + 1, 'one read at start, no load');
    for (let i = 0; i < 50; i++) await a.total({ ...window(10), accountId: `other-${i}` });
    assert.equal(table.calls, calls + 1, 'unknown counters cost nothing');
    const b = learning('b');
    for (let i = 0; i < 3; i++) await b.consume({ ...window(10), accountId: 'acc-2' });
    await b.sync();
    await a.sync();
    assert.equal(await a.total({ ...window(10), accountId: 'acc-2' }), 3, "learned from b's share");
    await a.stop();
  });

  it('writes only changed counters', async () => {
    const m = meter('a');
    await m.consume(window(10));
    await m.sync();
    const written = table.calls;
    await m.sync();
    assert.equal(table.calls, written + 1, 'the read only');
  });
});

describe('quotaHeaders', () => {
  const state: QuotaState = { allowed: true, limit: 100, remaining: 42, resetSeconds: 3600, windowSeconds: 86400 };

  it('writes the RateLimit fields and no Retry-After while calls are allowed', () => {
    assert.deepEqual(quotaHeaders(state), {
      'RateLimit-Limit': '100',
      'RateLimit-Remaining': '42',
      'RateLimit-Reset': '3600',
      'RateLimit-Policy': '100;w=86400',
    });
  });

  it('adds Retry-After, equal to the reset, once the quota is spent', () => {
    const spent = quotaHeaders({ ...state, allowed: false, remaining: 0 });
    assert.equal(spent['Retry-After'], '3600');
    assert.equal(spent['RateLimit-Remaining'], '0');
  });

  it('shows a never-ending window as one year', () => {
    assert.equal(MAX_RESET_SECONDS, 31_536_000);
  });
});
