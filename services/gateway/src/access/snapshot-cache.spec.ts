import assert from 'node:assert/strict';
import type { identityV1 } from '@stormhook/proto';
import { AccessSnapshotCache, type AccessSnapshotPort } from './snapshot-cache.js';

const USER = '11111111-1111-4111-8111-111111111111';

/** Identity as the cache sees it: the user's current state, and how often it was asked. */
class FakeIdentity implements AccessSnapshotPort {
  calls = 0;
  status = 'ACTIVE';
  role = 'API_USER';
  /** When set, answers wait for `release()`. */
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }
  release(): void {
    this.open?.();
    this.gate = undefined;
  }

  async getAccessSnapshot(request: identityV1.GetAccessSnapshotRequest): Promise<identityV1.AccessSnapshot> {
    this.calls++;
    // Read now, answer later: a held answer carries the state of the moment it was asked.
    const answer = { found: true, userId: request.userId, username: 'bot@example.com', role: this.role, status: this.status, account: null };
    if (this.gate) await this.gate;
    return answer;
  }
}

describe('AccessSnapshotCache', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('asks identity once, then answers from memory until the expiry', async () => {
    const identity = new FakeIdentity();
    const cache = new AccessSnapshotCache(identity, { ttlMs: 5_000, now });
    for (let i = 0; i < 100; i++) assert.equal((await cache.get(USER))?.status, 'ACTIVE');
    assert.equal(identity.calls, 1);
  });

  it('bounds a missed change event by the expiry: a blocked user is seen within ttlMs', async () => {
    const identity = new FakeIdentity();
    const cache = new AccessSnapshotCache(identity, { ttlMs: 5_000, now });
    await cache.get(USER);
    identity.status = 'BLOCKED'; // the event about it never arrives
    clock += 4_999;
    assert.equal((await cache.get(USER))?.status, 'ACTIVE', 'still inside the bound');
    clock += 1;
    assert.equal((await cache.get(USER))?.status, 'BLOCKED', 'refreshed at the bound');
    assert.equal(identity.calls, 2);
  });

  it('refreshes in the background shortly before the expiry: requests of an active user do not wait', async () => {
    const identity = new FakeIdentity();
    const cache = new AccessSnapshotCache(identity, { ttlMs: 5_000, refreshAheadMs: 1_000, now });
    await cache.get(USER);
    identity.status = 'BLOCKED';
    identity.hold(); // identity is slow: a request that waited for it would not finish
    clock += 3_999;
    assert.equal((await cache.get(USER))?.status, 'ACTIVE');
    assert.equal(identity.calls, 1, 'no refresh while the snapshot is fresh');
    clock += 1;
    assert.equal((await cache.get(USER))?.status, 'ACTIVE', 'answered from memory while the refresh runs');
    assert.equal((await cache.get(USER))?.status, 'ACTIVE');
    assert.equal(identity.calls, 2, 'one refresh');
    identity.release();
    await new Promise((resolve) => setImmediate(resolve));
    clock += 999; // still before the old expiry: the refreshed state is used already
    assert.equal((await cache.get(USER))?.status, 'BLOCKED');
    assert.equal(identity.calls, 2);
  });

  it('never uses a snapshot after its expiry, even when the background refresh failed', async () => {
    let fail = false;
    let calls = 0;
    const cache = new AccessSnapshotCache(
      {
        getAccessSnapshot: async (req) => {
          calls++;
          if (fail) throw new Error('identity down');
          return { found: true, userId: req.userId, username: 'u@example.com', role: 'ADMIN', status: 'ACTIVE', account: null };
        },
      },
      { ttlMs: 5_000, refreshAheadMs: 1_000, now },
    );
    await cache.get(USER);
    fail = true;
    clock += 4_500;
    assert.equal((await cache.get(USER))?.role, 'ADMIN');
    await new Promise((resolve) => setImmediate(resolve));
    clock += 500;
    await assert.rejects(cache.get(USER), /identity down/);
    assert.equal(calls, 3);
  });

  it('reads the new state at once after an eviction (the change event)', async () => {
    const identity = new FakeIdentity();
    const cache = new AccessSnapshotCache(identity, { ttlMs: 5_000, now });
    await cache.get(USER);
    identity.role = 'GUEST';
    cache.evict(USER);
    assert.equal((await cache.get(USER))?.role, 'GUEST');
  });

  it('shares one fetch among concurrent requests', async () => {
    const identity = new FakeIdentity();
    identity.hold();
    const cache = new AccessSnapshotCache(identity, { ttlMs: 5_000, now });
    const waiting = Array.from({ length: 20 }, () => cache.get(USER));
    identity.release();
    assert.equal((await Promise.all(waiting)).length, 20);
    assert.equal(identity.calls, 1);
  });

  it('does not keep a fetch that a change overtook (it may hold the state from before the change)', async () => {
    const identity = new FakeIdentity();
    identity.hold();
    const cache = new AccessSnapshotCache(identity, { ttlMs: 5_000, now });
    const early = cache.get(USER); // reads ACTIVE, answer held back
    identity.status = 'BLOCKED';
    cache.evict(USER); // the event of the block arrives before the old answer
    identity.release();
    assert.equal((await early)?.status, 'ACTIVE', 'the request that was already waiting gets its answer');
    assert.equal((await cache.get(USER))?.status, 'BLOCKED', 'but the next request reads again');
  });

  it('rejects when identity cannot answer, and does not remember the failure', async () => {
    let fail = true;
    const cache = new AccessSnapshotCache(
      {
        getAccessSnapshot: async (req) => {
          if (fail) throw new Error('identity down');
          return { found: true, userId: req.userId, username: 'u@example.com', role: 'ADMIN', status: 'ACTIVE', account: null };
        },
      },
      { ttlMs: 5_000, now },
    );
    await assert.rejects(cache.get(USER), /identity down/);
    fail = false;
    assert.equal((await cache.get(USER))?.role, 'ADMIN');
  });

  it('refuses a role it does not know instead of guessing, naming the field', async () => {
    const cache = new AccessSnapshotCache(
      { getAccessSnapshot: async (req) => ({ found: true, userId: req.userId, username: 'u', role: 'SUPERUSER', status: 'ACTIVE', account: null }) },
      { ttlMs: 5_000, now },
    );
    await assert.rejects(cache.get(USER), /role is not a known role: SUPERUSER/);
  });

  it('keeps at most maxEntries users', async () => {
    const identity = new FakeIdentity();
    const cache = new AccessSnapshotCache(identity, { ttlMs: 5_000, maxEntries: 3, now });
    for (let i = 0; i < 10; i++) await cache.get(`user-${i}`);
    assert.equal(cache.size, 3);
  });
});
