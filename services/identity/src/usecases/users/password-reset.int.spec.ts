import assert from 'node:assert/strict';
import { PASSWORD_CHANGED_MESSAGE } from './password-reset.js';
import { LINK_ORIGIN, must, startHarness, type Harness } from '../../test-support/harness.js';

describe('password reset (real database)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('pwreset');
  });
  after(async () => {
    await h?.close();
  });

  const page = `${LINK_ORIGIN}/reset?lang=tr`;
  function tokenOf(link: string | undefined): { userId: string; token: string } {
    const url = new URL(link ?? '');
    return { userId: url.searchParams.get('userId') ?? '', token: url.searchParams.get('token') ?? '' };
  }

  it('mails a single-use link; the token sets the password once, ends sessions and verifies the e-mail', async () => {
    const u = await h.user('STANDARD_USER', 'reset-me@example.com', 'old-password-1');
    const session = must(await h.uc.login.login({ username: u.username, password: 'old-password-1' }));

    const outcome = must(await h.uc.passwordReset.requestReset({ username: 'Reset-Me@example.com', resetPageLink: page }));
    assert.ok(outcome.sent);
    assert.equal(outcome.message.template, 'password-reset');
    assert.equal(outcome.message.to, 'reset-me@example.com');
    assert.deepEqual(h.messages.last(), outcome.message);
    const link = outcome.message.params['link'];
    assert.ok(link?.startsWith(`${LINK_ORIGIN}/reset?lang=tr&`));
    const { userId, token } = tokenOf(link);
    assert.equal(userId, u.userId);
    // Only a hash is stored.
    const stored = await h.mongo.db.collection('one_time_tokens').find({ userId: u.userId }).toArray();
    assert.equal(stored.length, 1);
    assert.ok(!JSON.stringify(stored).includes(token));

    const done = must(await h.uc.passwordReset.resetPassword({ userId, token, newPassword: 'new-password-2', loginPageLink: `${LINK_ORIGIN}/login` }));
    assert.equal(done.message, PASSWORD_CHANGED_MESSAGE);
    assert.equal(new URL(done.redirectTo ?? '').searchParams.get('message'), PASSWORD_CHANGED_MESSAGE);

    const again = await h.uc.passwordReset.resetPassword({ userId, token, newPassword: 'third-password-3' });
    assert.ok(!again.ok && again.error.kind === 'expired' && /already used/.test(again.error.message));
    must(await h.uc.login.login({ username: u.username, password: 'new-password-2' }));
    assert.equal((await h.uc.login.login({ username: u.username, password: 'old-password-1' })).ok, false);
    assert.equal((await h.uc.sessions.refresh(session.refreshToken)).ok, false, 'old sessions end');
    assert.equal(must(await h.uc.userQueries.getMe(u)).status, 'ACTIVE');
    assert.equal((await h.repos.users.findById(u.userId))?.emailVerified, true);
  });

  it('lets only one of two racing resets with the same token through', async () => {
    const u = await h.user('STANDARD_USER');
    const outcome = must(await h.uc.passwordReset.requestReset({ username: u.username, resetPageLink: page }));
    assert.ok(outcome.sent);
    const { userId, token } = tokenOf(outcome.message.params['link']);
    const results = await Promise.all(
      ['race-password-a', 'race-password-b', 'race-password-c'].map((newPassword) => h.uc.passwordReset.resetPassword({ userId, token, newPassword })),
    );
    assert.equal(results.filter((r) => r.ok).length, 1);
  });

  it('rejects an expired token, a superseded token and a token of another user', async () => {
    const u = await h.user('STANDARD_USER');
    const first = must(await h.uc.passwordReset.requestReset({ username: u.username, resetPageLink: page }));
    const second = must(await h.uc.passwordReset.requestReset({ username: u.username, resetPageLink: page }));
    assert.ok(first.sent && second.sent);
    const old = tokenOf(first.message.params['link']);
    const fresh = tokenOf(second.message.params['link']);
    const superseded = await h.uc.passwordReset.resetPassword({ ...old, newPassword: 'password-xyz' });
    assert.ok(!superseded.ok && superseded.error.kind === 'expired');

    const other = await h.user('STANDARD_USER');
    const foreign = await h.uc.passwordReset.resetPassword({ userId: other.userId, token: fresh.token, newPassword: 'password-xyz' });
    assert.ok(!foreign.ok && foreign.error.kind === 'expired');

    h.clock.advance(3600_000 + 1);
    const late = await h.uc.passwordReset.resetPassword({ ...fresh, newPassword: 'password-xyz' });
    assert.ok(!late.ok && late.error.kind === 'expired');
  });

  it('never tells whether the user exists, and sends nothing to blocked or unknown users', async () => {
    const before = h.messages.sent.length;
    const unknown = must(await h.uc.passwordReset.requestReset({ username: 'nobody@example.com', resetPageLink: page }));
    assert.deepEqual(unknown, { sent: false, reason: 'unknown-user' });
    const admin = await h.user('ADMIN');
    const u = await h.user('STANDARD_USER');
    must(await h.uc.changeRoleAndStatus.changeRoleAndStatus(admin, { userId: u.userId, status: 'BLOCKED' }));
    assert.deepEqual(must(await h.uc.passwordReset.requestReset({ username: u.username, resetPageLink: page })), { sent: false, reason: 'cannot-sign-in' });
    assert.equal(h.messages.sent.length, before);
  });

  it('limits reset e-mails per user and refuses links to foreign origins', async () => {
    const u = await h.user('STANDARD_USER');
    for (let i = 0; i < 5; i++) assert.ok(must(await h.uc.passwordReset.requestReset({ username: u.username, resetPageLink: page })).sent);
    assert.deepEqual(must(await h.uc.passwordReset.requestReset({ username: u.username, resetPageLink: page })), { sent: false, reason: 'too-many-requests' });
    const evil = await h.uc.passwordReset.requestReset({ username: u.username, resetPageLink: 'https://evil.example/reset' });
    assert.ok(!evil.ok && evil.error.kind === 'validation' && evil.error.field === 'resetPageLink');
    const weak = await h.uc.passwordReset.resetPassword({ userId: u.userId, token: 'x', newPassword: 'short' });
    assert.ok(!weak.ok && weak.error.kind === 'validation' && weak.error.field === 'newPassword');
  });
});
