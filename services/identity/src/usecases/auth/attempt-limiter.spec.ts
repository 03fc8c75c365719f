import assert from 'node:assert/strict';
import type { AttemptEntry, AttemptLogRepository } from '../../ports/repositories.js';
import { AttemptLimiter, type AttemptSubject } from './attempt-limiter.js';

/** In-memory fake of our own port. */
class MemoryLog implements AttemptLogRepository {
  entries: AttemptEntry[] = [];
  async add(entries: readonly AttemptEntry[]): Promise<void> {
    this.entries.push(...entries);
  }
  async timesAfter(key: string, after: Date): Promise<Date[]> {
    return this.entries
      .filter((e) => e.key === key && e.at > after)
      .map((e) => e.at)
      .sort((a, b) => a.getTime() - b.getTime());
  }
  async remove(ids: readonly string[]): Promise<void> {
    this.entries = this.entries.filter((e) => !ids.includes(e.id));
  }
  async clear(key: string): Promise<void> {
    this.entries = this.entries.filter((e) => e.key !== key);
  }
  async purgeExpired(now: Date): Promise<number> {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => e.expiresAt >= now);
    return before - this.entries.length;
  }
}

describe('AttemptLimiter', () => {
  const windowMs = 60_000;
  const subject: AttemptSubject = { scope: 'login-user', subject: 'ada@example.com', policy: { limit: 3, windowMs } };
  const t0 = new Date('2025-01-01T00:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  it('admits `limit` attempts per window, then refuses and says how long to wait', async () => {
    const limiter = new AttemptLimiter(new MemoryLog());
    const remaining: number[] = [];
    for (const ms of [0, 10_000, 20_000]) {
      const outcome = await limiter.attempt([subject], at(ms));
      assert.ok(!outcome.limited);
      remaining.push(outcome.ticket.remaining[0] ?? -1);
    }
    assert.deepEqual(remaining, [2, 1, 0]);
    // The first attempt (t=0) leaves the window at t=60 s: from t=30 s that is 30 s away.
    assert.deepEqual(await limiter.attempt([subject], at(30_000)), { limited: true, retryAfterSeconds: 30 });
    assert.equal((await limiter.attempt([subject], at(60_001))).limited, false);
  });

  it('does not let refused attempts extend the lock', async () => {
    const log = new MemoryLog();
    const limiter = new AttemptLimiter(log);
    for (let i = 0; i < 3; i++) await limiter.attempt([subject], at(0));
    for (let i = 1; i <= 20; i++) assert.equal((await limiter.attempt([subject], at(i * 1000))).limited, true);
    assert.equal(log.entries.length, 3);
    assert.equal((await limiter.attempt([subject], at(60_001))).limited, false);
  });

  it('gets at most `limit` attempts of a parallel burst through', async () => {
    const log = new MemoryLog();
    const limiter = new AttemptLimiter(log);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => limiter.attempt([subject], at(0))));
    const admitted = outcomes.filter((o) => !o.limited).length;
    assert.ok(admitted <= 3, `${admitted} admitted`);
    assert.equal(log.entries.length, admitted, 'refused attempts leave no entry');
    // Sequential attempts afterwards fill the limit exactly.
    for (let i = admitted; i < 3; i++) assert.equal((await limiter.attempt([subject], at(1))).limited, false);
    assert.equal((await limiter.attempt([subject], at(1))).limited, true);
  });

  it('keeps subjects apart, refuses when any subject is over, forgives and clears', async () => {
    const log = new MemoryLog();
    const limiter = new AttemptLimiter(log);
    const other: AttemptSubject = { ...subject, subject: 'bob@example.com' };
    for (let i = 0; i < 3; i++) await limiter.attempt([subject], at(0));
    const otherAlone = await limiter.attempt([other], at(0));
    assert.ok(!otherAlone.limited);
    await limiter.forgive(otherAlone.ticket);
    assert.equal((await limiter.attempt([other, subject], at(0))).limited, true);
    assert.equal(log.entries.filter((e) => e.key === 'login-user:bob@example.com').length, 0, 'a refused attempt leaves nothing behind');
    await limiter.clear([subject]);
    assert.equal((await limiter.attempt([subject], at(0))).limited, false);
  });
});
