import assert from 'node:assert/strict';
import type { Principal } from '@stormhook/access';
import { must, startHarness, type Harness } from '../test-support/harness.js';

describe('API keys (real database)', () => {
  let h: Harness;
  let admin: Principal;
  before(async () => {
    h = await startHarness('apikeys');
    admin = await h.user('ADMIN');
  });
  after(async () => {
    await h?.close();
  });

  it('shows the key once, stores only a hash, lists it masked and verifies it to the principal', async () => {
    const bot = await h.user('API_USER');
    const account = must(await h.uc.accounts.createAccount(bot, { userId: bot.userId, type: 'ORGANIZATION', subscriptionPlan: 'NONE' }));
    const created = must(await h.uc.apiKeys.create(bot, { name: 'nightly export' }));
    assert.match(created.key, /^shk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const stored = await h.mongo.db.collection('api_keys').findOne({ _id: created.keyId as never });
    assert.ok(stored && !JSON.stringify(stored).includes(created.key.slice(-43)));

    const [listed] = must(await h.uc.apiKeys.list(bot));
    assert.ok(listed);
    assert.equal(listed.maskedKey, `shk_${created.keyId}_****${created.key.slice(-4)}`);
    assert.equal(listed.revoked, false);
    assert.ok(!JSON.stringify(listed).includes(created.key));

    assert.deepEqual(must(await h.uc.apiKeys.verify(created.key)), {
      userId: bot.userId,
      role: 'API_USER',
      username: bot.username,
      via: 'api-key',
      accountId: account.id,
    });
    assert.ok(must(await h.uc.apiKeys.list(bot))[0]?.lastUsedAt);
  });

  it('stops working when revoked, tampered with, expired, or the user leaves API_USER', async () => {
    const bot = await h.user('API_USER');
    const a = must(await h.uc.apiKeys.create(bot, { name: 'a' }));
    const b = must(await h.uc.apiKeys.create(admin, { userId: bot.userId, name: 'made by admin', expiresAt: h.clock.now().getTime() + 60_000 }));
    const tampered = a.key.slice(0, -1) + (a.key.endsWith('A') ? 'B' : 'A');
    assert.ok(!(await h.uc.apiKeys.verify(tampered)).ok);
    assert.ok(!(await h.uc.apiKeys.verify('shk_nope')).ok);
    assert.deepEqual(must(await h.uc.apiKeys.revoke(bot, { keyId: a.keyId })), { keyId: a.keyId, revoked: true });
    // The gateways hear of the revocation (and of both creations) so they drop the key at once.
    assert.deepEqual(
      h.accessChanges.changes.filter((c) => c.userId === bot.userId),
      [
        { userId: bot.userId, change: 'API_KEY_CREATED', apiKeyId: a.keyId },
        { userId: bot.userId, change: 'API_KEY_CREATED', apiKeyId: b.keyId },
        { userId: bot.userId, change: 'API_KEY_REVOKED', apiKeyId: a.keyId },
      ],
    );
    const revoked = await h.uc.apiKeys.verify(a.key);
    assert.ok(!revoked.ok && revoked.error.kind === 'invalid-credentials');

    must(await h.uc.apiKeys.verify(b.key));
    must(await h.uc.changeRoleAndStatus.changeRoleAndStatus(admin, { userId: bot.userId, role: 'STANDARD_USER' }));
    assert.ok(!(await h.uc.apiKeys.verify(b.key)).ok, 'only API_USER principals may use keys');
    must(await h.uc.changeRoleAndStatus.changeRoleAndStatus(admin, { userId: bot.userId, role: 'API_USER' }));
    must(await h.uc.apiKeys.verify(b.key));
    h.clock.advance(60_001);
    assert.ok(!(await h.uc.apiKeys.verify(b.key)).ok);
  });

  it('is managed by the owner or an ADMIN only, and only for API_USER users', async () => {
    const bot = await h.user('API_USER');
    const stranger = await h.user('POWER_USER');
    const key = must(await h.uc.apiKeys.create(bot, { name: 'k' }));
    const foreign = await h.uc.apiKeys.revoke(stranger, { keyId: key.keyId });
    assert.ok(!foreign.ok && foreign.error.kind === 'not-found');
    const foreignList = await h.uc.apiKeys.list(stranger, bot.userId);
    assert.ok(!foreignList.ok && foreignList.error.kind === 'not-found');
    const human = await h.uc.apiKeys.create(stranger, { name: 'mine' });
    assert.ok(!human.ok && human.error.kind === 'forbidden');
    assert.equal(must(await h.uc.apiKeys.list(admin, bot.userId)).length, 1);
    must(await h.uc.apiKeys.verify(key.key));
  });

  it('caps live keys per user', async () => {
    const bot = await h.user('API_USER');
    for (let i = 0; i < 10; i++) must(await h.uc.apiKeys.create(bot, { name: `k${i}` }));
    const over = await h.uc.apiKeys.create(bot, { name: 'one too many' });
    assert.ok(!over.ok && over.error.kind === 'conflict');
  });

  it('keeps the cap when creations race (each checks again after its insert)', async () => {
    const bot = await h.user('API_USER');
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => h.uc.apiKeys.create(bot, { name: `racer ${i}` })));
    const created = results.filter((r) => r.ok).length;
    assert.ok(created <= 10, `${created} keys created`);
    assert.ok(results.every((r) => r.ok || r.error.kind === 'conflict'));
    const live = must(await h.uc.apiKeys.list(bot)).filter((k) => !k.revoked);
    assert.equal(live.length, created, 'refused racers left no key behind');
  });
});
