import assert from 'node:assert/strict';
import { CachedHealth } from './cached-health.js';
import type { HealthPort, HealthReport } from './health-port.js';

/** Counts rounds of checks; each round resolves when the test says so. */
class CountingHealth implements HealthPort {
  rounds = 0;
  fail = false;
  private release: Array<() => void> = [];
  async check(): Promise<HealthReport> {
    this.rounds++;
    await new Promise<void>((resolve) => this.release.push(resolve));
    if (this.fail) throw new Error('probe failed');
    return { status: 'up', components: { identity: { status: 'up' } } };
  }
  finish(): void {
    for (const release of this.release.splice(0)) release();
  }
}

describe('the cached health view', () => {
  it('runs one round of checks for any number of concurrent calls, and reuses it for its time to live', async () => {
    const inner = new CountingHealth();
    let now = 1_000;
    const cached = new CachedHealth(inner, 1_000, () => now);
    const calls = Array.from({ length: 50 }, () => cached.check());
    await new Promise((resolve) => setImmediate(resolve));
    inner.finish();
    const reports = await Promise.all(calls);
    assert.equal(inner.rounds, 1);
    assert.ok(reports.every((r) => r === reports[0]));
    now += 999;
    await cached.check();
    assert.equal(inner.rounds, 1, 'within the time to live: no new round');
    now += 1;
    const next = cached.check();
    await new Promise((resolve) => setImmediate(resolve));
    inner.finish();
    await next;
    assert.equal(inner.rounds, 2, 'after it: a new round');
  });

  it('shares a failing round with the callers waiting on it, and keeps nothing of it', async () => {
    const inner = new CountingHealth();
    inner.fail = true;
    const cached = new CachedHealth(inner, 1_000, () => 0);
    const calls = [cached.check(), cached.check()];
    await new Promise((resolve) => setImmediate(resolve));
    inner.finish();
    for (const call of calls) await assert.rejects(call, /probe failed/);
    assert.equal(inner.rounds, 1);
    inner.fail = false;
    const again = cached.check();
    await new Promise((resolve) => setImmediate(resolve));
    inner.finish();
    assert.equal((await again).status, 'up');
    assert.equal(inner.rounds, 2);
  });
});
