import assert from 'node:assert/strict';
import { hashScrypt } from '../../security/scrypt-legacy.js';
import { must, startHarness, type Harness } from '../../test-support/harness.js';

describe('login, refresh and logout (real database)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('auth');
  });
  after(async () => {
    await h?.close();
  });

  it('signs in with the right password; the access token verifies to the principal', async () => {
    const ada = await h.user('STANDARD_USER', 'Ada@Example.com', 'analytical-engine');
    const pair = must(await h.uc.login.login({ username: 'ada@example.COM', password: 'analytical-engine', address: '10.0.0.1' }));
    assert.equal(pair.type, 'Bearer');
    assert.equal(pair.username, 'ada@example.com');
    assert.equal(pair.expiresIn, 900);
    assert.match(pair.refreshToken, /^[0-9a-f]{24}\.[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(must(await h.uc.sessions.verifyAccessToken(pair.accessToken)), {
      userId: ada.userId,
      role: 'STANDARD_USER',
      username: 'ada@example.com',
      via: 'access-token',
    });
    // Nothing secret is stored in clear.
    const stored = await h.mongo.db.collection('refresh_tokens').findOne({});
    assert.ok(stored && !JSON.stringify(stored).includes(pair.refreshToken.split('.')[1] ?? 'x'));
    const credential = await h.mongo.db.collection('credentials').findOne({ _id: ada.userId as never });
    assert.match(String(credential?.['passwordHash']), /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
  });

  it('upgrades a scrypt hash stored before Argon2id at the next successful login', async () => {
    const old = await h.user('STANDARD_USER', 'legacy@example.com', 'old-scrypt-password');
    await h.repos.credentials.setPasswordHash(old.userId, await hashScrypt('old-scrypt-password', { ln: 10, r: 8, p: 1 }), h.clock.now());
    const wrong = await h.uc.login.login({ username: 'legacy@example.com', password: 'not-it', address: '10.0.9.1' });
    assert.ok(!wrong.ok);
    assert.match(String(await h.repos.credentials.passwordHash(old.userId)), /^\$scrypt\$/, 'a failed login changes nothing');
    must(await h.uc.login.login({ username: 'legacy@example.com', password: 'old-scrypt-password', address: '10.0.9.1' }));
    assert.match(String(await h.repos.credentials.passwordHash(old.userId)), /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    must(await h.uc.login.login({ username: 'legacy@example.com', password: 'old-scrypt-password', address: '10.0.9.1' }));
  });

  it('answers the same failure for a wrong password and an unknown user', async () => {
    await h.user('STANDARD_USER', 'grace@example.com', 'cobol-forever');
    const wrong = await h.uc.login.login({ username: 'grace@example.com', password: 'fortran', address: '10.0.0.2' });
    const unknown = await h.uc.login.login({ username: 'nobody@example.com', password: 'fortran', address: '10.0.0.2' });
    assert.deepEqual(wrong, { ok: false, error: { kind: 'invalid-credentials', message: 'Invalid username or password' } });
    assert.deepEqual(unknown, wrong);
  });

  it('locks a username from one address after 5 failures, even for the right password, and counts unknown users too', async () => {
    await h.user('STANDARD_USER', 'linus@example.com', 'penguins-rule');
    for (let i = 0; i < 5; i++) {
      const r = await h.uc.login.login({ username: 'linus@example.com', password: `guess-${i}`, address: '10.1.0.7' });
      assert.ok(!r.ok && r.error.kind === 'invalid-credentials');
    }
    const locked = await h.uc.login.login({ username: 'linus@example.com', password: 'penguins-rule', address: '10.1.0.7' });
    assert.ok(!locked.ok && locked.error.kind === 'rate-limited' && locked.error.retryAfterSeconds > 0);

    for (let i = 0; i < 5; i++) await h.uc.login.login({ username: 'ghost@example.com', password: 'x', address: '10.2.0.9' });
    const ghost = await h.uc.login.login({ username: 'ghost@example.com', password: 'x', address: '10.2.0.9' });
    assert.ok(!ghost.ok && ghost.error.kind === 'rate-limited', 'unknown users lock the same way, so lockout reveals nothing');

    h.clock.advance(31 * 60_000); // two windows later
    must(await h.uc.login.login({ username: 'linus@example.com', password: 'penguins-rule', address: '10.1.0.7' }));
  });

  it('does not let a guesser elsewhere lock the user out of their own sign-in; 50 guesses spread over addresses do', async () => {
    await h.user('STANDARD_USER', 'babbage@example.com', 'analytical-engine');
    for (let i = 0; i < 5; i++) await h.uc.login.login({ username: 'babbage@example.com', password: `guess-${i}`, address: '198.51.100.66' });
    const attacker = await h.uc.login.login({ username: 'babbage@example.com', password: 'analytical-engine', address: '198.51.100.66' });
    assert.ok(!attacker.ok && attacker.error.kind === 'rate-limited', 'the guessing address is locked out');
    must(await h.uc.login.login({ username: 'babbage@example.com', password: 'analytical-engine', address: '10.9.0.1' }));

    for (let i = 0; i < 50; i++) await h.uc.login.login({ username: 'babbage@example.com', password: `spread-${i}`, address: `10.8.${i}.1` });
    const everywhere = await h.uc.login.login({ username: 'babbage@example.com', password: 'analytical-engine', address: '10.9.0.1' });
    assert.ok(!everywhere.ok && everywhere.error.kind === 'rate-limited', 'a distributed guess locks the username everywhere');
  });

  it('limits one address trying many usernames', async () => {
    for (let i = 0; i < 30; i++) await h.uc.login.login({ username: `spray${i}@example.com`, password: 'Summer2025!', address: '203.0.113.7' });
    const blocked = await h.uc.login.login({ username: 'spray-new@example.com', password: 'Summer2025!', address: '203.0.113.7' });
    assert.ok(!blocked.ok && blocked.error.kind === 'rate-limited');
    const elsewhere = await h.uc.login.login({ username: 'spray-new@example.com', password: 'Summer2025!', address: '198.51.100.1' });
    assert.ok(!elsewhere.ok && elsewhere.error.kind === 'invalid-credentials');
  });

  it('refuses BLOCKED, DELETED, EXPIRED and INACTIVE users with the right password', async () => {
    const admin = await h.user('ADMIN');
    for (const status of ['BLOCKED', 'DELETED', 'EXPIRED', 'INACTIVE'] as const) {
      const u = await h.user('API_USER');
      must(await h.uc.changeRoleAndStatus.changeRoleAndStatus(admin, { userId: u.userId, status }));
      const r = await h.uc.login.login({ username: u.username, password: u.password });
      assert.ok(!r.ok && r.error.kind === 'forbidden', status);
    }
  });

  it('rotates refresh tokens; a reused one fails and ends the whole session', async () => {
    const u = await h.user('API_USER');
    const first = must(await h.uc.login.login({ username: u.username, password: u.password }));
    const second = must(await h.uc.sessions.refresh(first.refreshToken));
    assert.notEqual(second.refreshToken, first.refreshToken);
    assert.equal(must(await h.uc.sessions.verifyAccessToken(second.accessToken)).userId, u.userId);
    const third = must(await h.uc.sessions.refresh(second.refreshToken));

    const replay = await h.uc.sessions.refresh(first.refreshToken);
    assert.ok(!replay.ok && replay.error.kind === 'invalid-credentials' && /already used/.test(replay.error.message));
    const afterReplay = await h.uc.sessions.refresh(third.refreshToken);
    assert.ok(!afterReplay.ok && afterReplay.error.kind === 'invalid-credentials', 'the legitimate holder is signed out too');

    // Another session of the same user is untouched.
    const other = must(await h.uc.login.login({ username: u.username, password: u.password }));
    must(await h.uc.sessions.refresh(other.refreshToken));
  });

  it('treats two concurrent refreshes with one token as a replay: neither yields a live session', async () => {
    const u = await h.user('API_USER');
    const pair = must(await h.uc.login.login({ username: u.username, password: u.password }));
    const results = await Promise.all([1, 2, 3].map(() => h.uc.sessions.refresh(pair.refreshToken)));
    assert.ok(results.filter((r) => r.ok).length <= 1);
    for (const r of results) if (r.ok) assert.equal((await h.uc.sessions.refresh(r.value.refreshToken)).ok, false);
    const rotations = await h.mongo.db
      .collection('claims')
      .countDocuments({ kind: 'refresh-rotation', _id: { $in: [`refresh-rotation:${pair.refreshToken.split('.')[0]}`] } as never });
    assert.equal(rotations, 1);
  });

  it('rejects a forged refresh token without ending the real session', async () => {
    const u = await h.user('API_USER');
    const pair = must(await h.uc.login.login({ username: u.username, password: u.password }));
    const [id] = pair.refreshToken.split('.');
    const forged = await h.uc.sessions.refresh(`${id}.${'A'.repeat(43)}`);
    assert.ok(!forged.ok && forged.error.kind === 'invalid-credentials');
    for (const junk of ['', 'abc', 42, undefined]) assert.equal((await h.uc.sessions.refresh(junk)).ok, false);
    must(await h.uc.sessions.refresh(pair.refreshToken));
  });

  it('logs out: the refresh token stops working; logging out twice is fine', async () => {
    const u = await h.user('API_USER');
    const pair = must(await h.uc.login.login({ username: u.username, password: u.password }));
    assert.deepEqual(must(await h.uc.sessions.logout(pair.refreshToken)), { revoked: true });
    assert.deepEqual(must(await h.uc.sessions.logout(pair.refreshToken)), { revoked: false });
    assert.equal((await h.uc.sessions.refresh(pair.refreshToken)).ok, false);
  });

  it('expires access tokens after 15 minutes and refresh tokens after 30 days', async () => {
    const u = await h.user('API_USER');
    const pair = must(await h.uc.login.login({ username: u.username, password: u.password }));
    h.clock.advance(16 * 60_000);
    const stale = await h.uc.sessions.verifyAccessToken(pair.accessToken);
    assert.ok(!stale.ok && stale.error.kind === 'invalid-credentials' && /expired/.test(stale.error.message));
    h.clock.advance(30 * 24 * 3600_000);
    assert.equal((await h.uc.sessions.refresh(pair.refreshToken)).ok, false);
  });

  it('ends every session when an ADMIN blocks the user', async () => {
    const admin = await h.user('ADMIN');
    const u = await h.user('API_USER');
    const pair = must(await h.uc.login.login({ username: u.username, password: u.password }));
    must(await h.uc.changeRoleAndStatus.changeRoleAndStatus(admin, { userId: u.userId, status: 'BLOCKED' }));
    assert.equal((await h.uc.sessions.refresh(pair.refreshToken)).ok, false);
    // Unblocking does not resurrect the old session.
    must(await h.uc.changeRoleAndStatus.changeRoleAndStatus(admin, { userId: u.userId, status: 'ACTIVE' }));
    assert.equal((await h.uc.sessions.refresh(pair.refreshToken)).ok, false);
  });

  it('carries the account id once the user has an account', async () => {
    const u = await h.user('API_USER');
    const account = must(await h.uc.accounts.createAccount(u, { userId: u.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE' }));
    const pair = must(await h.uc.login.login({ username: u.username, password: u.password }));
    assert.equal(must(await h.uc.sessions.verifyAccessToken(pair.accessToken)).accountId, account.id);
  });
});
