import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { User } from '../domain/user.js';
import { ensureIdentityIndexes } from './collections.js';
import { must, startHarness, type Harness } from '../test-support/harness.js';

describe('identity persistence (real database)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('persist');
  });
  after(async () => {
    await h?.close();
  });

  const user = (username: string): User => ({
    userId: randomUUID(),
    username,
    firstName: 'F',
    lastName: 'L',
    locale: 'tr_TR',
    timezone: 'Europe/Istanbul',
    role: 'GUEST',
    status: 'ACTIVE',
    emailVerified: false,
    createdAt: new Date(),
    updatedAt: new Date(),
  });

  it('ensures indexes idempotently', async () => {
    await ensureIdentityIndexes(h.mongo.db);
    await ensureIdentityIndexes(h.mongo.db);
    const names = (await h.mongo.db.collection('users').listIndexes().toArray()).map((i) => i.name);
    assert.ok(names.includes('username_unique'));
  });

  it('keeps usernames unique at the database, even for racing inserts', async () => {
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => h.repos.users.insert(user('same@example.com'))));
    assert.deepEqual(outcomes.filter((o) => o === 'inserted').length, 1);
    assert.equal(await h.repos.users.insert(user('SAME@example.com'.toLowerCase())), 'duplicate');
  });

  it('keeps one account per user at the database', async () => {
    const u = user('acc@example.com');
    await h.repos.users.insert(u);
    const now = new Date();
    const account = (id: string) => ({
      id,
      userId: u.userId,
      type: 'INDIVIDUAL' as const,
      subscriptionPlan: 'NONE' as const,
      subscription: { plan: 'NONE' as const, geographicBoundaries: [], limits: {} },
      mobilePhoneNumberVerified: false,
      createdAt: now,
      updatedAt: now,
    });
    const outcomes = await Promise.all([randomUUID(), randomUUID(), randomUUID()].map((id) => h.repos.accounts.insert(account(id))));
    assert.equal(outcomes.filter((o) => o === 'inserted').length, 1);
  });

  it('counts attempts exactly under concurrency (a log, not a $inc counter)', async () => {
    const now = new Date();
    const entries = Array.from({ length: 25 }, (_, i) => ({ id: `e${i}`, key: 'k:x', at: now, expiresAt: new Date(now.getTime() + 60_000) }));
    await Promise.all(entries.map((e) => h.repos.attempts.add([e])));
    assert.equal((await h.repos.attempts.timesAfter('k:x', new Date(now.getTime() - 1))).length, 25);
    assert.equal((await h.repos.attempts.timesAfter('k:x', now)).length, 0);
  });

  it('rotates a refresh token exactly once however many race', async () => {
    const now = new Date();
    await h.repos.refreshTokens.insert({
      tokenId: 'a'.repeat(24),
      familyId: 'fam',
      userId: 'u',
      secretHash: 'h',
      issuedAt: now,
      expiresAt: new Date(now.getTime() + 60_000),
    });
    const wins = await Promise.all([1, 2, 3, 4, 5].map(() => h.repos.refreshTokens.markRotated('a'.repeat(24), now, new Date(now.getTime() + 60_000))));
    assert.equal(wins.filter(Boolean).length, 1);
    assert.ok((await h.repos.refreshTokens.findById('a'.repeat(24)))?.rotatedAt);
    // A token issued after its family was revoked reads as revoked.
    await h.repos.refreshTokens.revokeFamily('fam', now);
    await h.repos.refreshTokens.insert({
      tokenId: 'b'.repeat(24),
      familyId: 'fam',
      userId: 'u',
      secretHash: 'h',
      issuedAt: now,
      expiresAt: new Date(now.getTime() + 60_000),
    });
    assert.ok((await h.repos.refreshTokens.findById('b'.repeat(24)))?.revokedAt);
  });

  it('purges what has expired and nothing else', async () => {
    const u = await h.user('STANDARD_USER');
    await h.uc.login.login({ username: u.username, password: 'wrong-password' });
    const pair = must(await h.uc.login.login({ username: u.username, password: u.password }));
    must(await h.uc.sessions.refresh(pair.refreshToken));
    const db = h.mongo.db;
    const count = async () => ({
      attempts: await db.collection('attempts').countDocuments({ key: `login-user:${u.username}` }),
      tokens: await db.collection('refresh_tokens').countDocuments({ userId: u.userId }),
    });
    assert.equal((await count()).tokens, 2);

    h.clock.advance(20 * 60_000);
    const early = await h.uc.housekeeping.purgeExpired();
    assert.ok(early.attempts >= 1);
    assert.deepEqual(await count(), { attempts: 0, tokens: 2 });

    h.clock.advance(31 * 24 * 3600_000);
    const late = await h.uc.housekeeping.purgeExpired();
    assert.ok(late.refreshTokens >= 3, 'two tokens and the rotation claim');
    assert.deepEqual(await count(), { attempts: 0, tokens: 0 });
  });
});
