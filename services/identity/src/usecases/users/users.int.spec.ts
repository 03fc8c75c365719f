import assert from 'node:assert/strict';
import type { Principal } from '@stormhook/access';
import { LINK_ORIGIN, must, startHarness, type Harness } from '../../test-support/harness.js';

describe('users: bootstrap, creation, queries (real database)', () => {
  let h: Harness;
  let admin: Principal;
  before(async () => {
    h = await startHarness('users');
    admin = await h.user('ADMIN', 'boss@stormhook.test');
  });
  after(async () => {
    await h?.close();
  });

  it('creates the first administrator once; later starts change nothing', async () => {
    const first = must(await h.uc.adminBootstrap.ensureAdmin('Admin@Stormhook.test', 'first-password'));
    assert.equal(first.outcome, 'created');
    assert.equal(first.role, 'ADMIN');
    const again = must(await h.uc.adminBootstrap.ensureAdmin('admin@stormhook.test', 'another-password'));
    assert.deepEqual(again, { outcome: 'exists', userId: first.userId, role: 'ADMIN' });
    // The password of the first start still works: a restart must not reset it.
    must(await h.uc.login.login({ username: 'admin@stormhook.test', password: 'first-password' }));
    assert.equal((await h.uc.login.login({ username: 'admin@stormhook.test', password: 'another-password' })).ok, false);
    assert.equal(await h.mongo.db.collection('users').countDocuments({ username: 'admin@stormhook.test' }), 1);

    const racing = await Promise.all([1, 2, 3].map(() => h.uc.adminBootstrap.ensureAdmin('race@stormhook.test', 'race-password')));
    const ids = new Set(racing.map((r) => must(r).userId));
    assert.equal(ids.size, 1, 'replicas starting together create one administrator');

    const weak = await h.uc.adminBootstrap.ensureAdmin('x@stormhook.test', 'short');
    assert.ok(!weak.ok && weak.error.kind === 'validation' && weak.error.field === 'STORMHOOK_ADMIN_PASSWORD');
  });

  it('lets only an ADMIN create users, refuses duplicate usernames in any case, names bad fields', async () => {
    const created = must(
      await h.uc.createUser.createUser(admin, {
        username: 'Marie@Example.com',
        firstName: 'Marie',
        lastName: 'Curie',
        midName: 'Skłodowska',
        locale: 'fr_FR',
        timezone: 'Europe/Paris',
        role: 'POWER_USER',
        password: 'radium-and-polonium',
      }),
    );
    assert.deepEqual(created.user, {
      userId: created.user.userId,
      username: 'marie@example.com',
      firstName: 'Marie',
      lastName: 'Curie',
      midName: 'Skłodowska',
      locale: 'fr_FR',
      timezone: 'Europe/Paris',
      roles: 'POWER_USER',
      status: 'ACTIVE',
    });
    const dup = await h.uc.createUser.createUser(admin, {
      username: 'MARIE@example.com',
      firstName: 'M',
      lastName: 'C',
      role: 'GUEST',
      password: 'whatever-123',
    });
    assert.ok(!dup.ok && dup.error.kind === 'conflict');

    const power = await h.user('POWER_USER');
    const denied = await h.uc.createUser.createUser(power, {
      username: 'x@example.com',
      firstName: 'X',
      lastName: 'Y',
      role: 'GUEST',
      password: 'password-123',
    });
    assert.ok(!denied.ok && denied.error.kind === 'forbidden');

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ username: 'not-an-email' }, 'username'],
      [{ locale: 'tr-TR' }, 'locale'],
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ role: 'OWNER' }, 'role'],
      [{ password: 'short' }, 'password'],
      [{ password: undefined }, 'password'],
      [{ firstName: '' }, 'firstName'],
    ];
    for (const [change, field] of cases) {
      const r = await h.uc.createUser.createUser(admin, {
        username: 'valid@example.com',
        firstName: 'V',
        lastName: 'W',
        role: 'GUEST',
        password: 'password-123',
        ...change,
      });
      assert.ok(!r.ok && r.error.kind === 'validation', field);
      assert.equal(r.error.field, field);
    }
  });

  it('invites a user: INACTIVE until the invitation sets a password, then ACTIVE and e-mail verified', async () => {
    const created = must(
      await h.uc.createUser.createUser(admin, {
        username: 'invitee@example.com',
        firstName: 'In',
        lastName: 'Vitee',
        role: 'API_USER',
        invite: true,
        invitationPageLink: `${LINK_ORIGIN}/welcome`,
      }),
    );
    assert.equal(created.user.status, 'INACTIVE');
    const invitation = created.invitation;
    assert.ok(invitation && invitation.messageSent && invitation.link);
    assert.equal(invitation.expiresAt.getTime() - h.clock.now().getTime(), 7 * 24 * 3600_000);
    const mail = h.messages.last();
    assert.equal(mail.template, 'invitation');
    assert.equal(mail.to, 'invitee@example.com');
    const link = new URL(mail.params['link'] ?? '');
    assert.equal(link.searchParams.get('userId'), created.user.userId);
    assert.equal(link.searchParams.get('token'), invitation.token);
    assert.equal((await h.uc.login.login({ username: 'invitee@example.com', password: 'anything-at-all' })).ok, false);

    must(await h.uc.passwordReset.resetPassword({ userId: created.user.userId, token: invitation.token, newPassword: 'my-own-password' }));
    must(await h.uc.login.login({ username: 'invitee@example.com', password: 'my-own-password' }));
    const me = must(await h.uc.userQueries.getUser(admin, created.user.userId));
    assert.equal(me.status, 'ACTIVE');

    const badLink = await h.uc.createUser.createUser(admin, {
      username: 'evil@example.com',
      firstName: 'E',
      lastName: 'V',
      role: 'GUEST',
      invite: true,
      invitationPageLink: 'https://attacker.example/steal',
    });
    assert.ok(!badLink.ok && badLink.error.kind === 'validation' && badLink.error.field === 'invitationPageLink');
  });

  it('changes role and status (ADMIN only, never their own)', async () => {
    const u = await h.user('STANDARD_USER');
    const changed = must(await h.uc.changeRoleAndStatus.changeRoleAndStatus(admin, { userId: u.userId, role: 'EXTENDED_USER', status: 'EXPIRED' }));
    assert.equal(changed.roles, 'EXTENDED_USER');
    assert.equal(changed.status, 'EXPIRED');
    assert.deepEqual(h.accessChanges.changes.at(-1), { userId: u.userId, change: 'ROLE_OR_STATUS' });
    const self = await h.uc.changeRoleAndStatus.changeRoleAndStatus(admin, { userId: admin.userId, role: 'GUEST' });
    assert.ok(!self.ok && self.error.kind === 'forbidden');
    const notAdmin = await h.uc.changeRoleAndStatus.changeRoleAndStatus(u, { userId: u.userId, role: 'ADMIN' });
    assert.ok(!notAdmin.ok && notAdmin.error.kind === 'forbidden');
    const missing = await h.uc.changeRoleAndStatus.changeRoleAndStatus(admin, { userId: '99999999-9999-4999-8999-999999999999', status: 'ACTIVE' });
    assert.ok(!missing.ok && missing.error.kind === 'not-found');
    const bad = await h.uc.changeRoleAndStatus.changeRoleAndStatus(admin, { userId: u.userId, status: 'GONE' });
    assert.ok(!bad.ok && bad.error.kind === 'validation' && bad.error.field === 'status');
    assert.equal(h.accessChanges.changes.filter((c) => c.userId === u.userId).length, 1, 'refused changes publish nothing');
  });

  it('answers getMe with the account, and getUser to POWER_USER and above or oneself', async () => {
    const u = await h.user('STANDARD_USER');
    const account = must(await h.uc.accounts.createAccount(u, { userId: u.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE' }));
    const me = must(await h.uc.userQueries.getMe(u));
    assert.equal(me.account?.id, account.id);
    assert.equal(me.account?.subscriptionPlan, 'NONE');
    must(await h.uc.userQueries.getUser(u, u.userId));
    const other = await h.user('STANDARD_USER');
    const denied = await h.uc.userQueries.getUser(other, u.userId);
    assert.ok(!denied.ok && denied.error.kind === 'forbidden');
    const power = await h.user('POWER_USER');
    assert.equal(must(await h.uc.userQueries.getUser(power, u.userId)).account?.id, account.id);
    const bad = await h.uc.userQueries.getUser(power, 'nope');
    assert.ok(!bad.ok && bad.error.kind === 'validation' && bad.error.field === 'userId');
  });
});

describe('users: paging per interface.md 4.16 (real database)', () => {
  let h: Harness;
  let admin: Principal;
  before(async () => {
    h = await startHarness('userpage');
    admin = await h.user('ADMIN', 'a-admin@example.com');
    const people: Array<[string, 'API_USER' | 'POWER_USER' | 'GUEST', string]> = [
      ['d-dora@example.com', 'API_USER', 'Zed'],
      ['b-bob@example.com', 'API_USER', 'Young'],
      ['c-cem@example.com', 'POWER_USER', 'Xu'],
      ['e-eda@example.com', 'GUEST', 'Wolf'],
    ];
    for (const [username, role, lastName] of people) {
      must(await h.uc.createUser.createUser(admin, { username, firstName: 'P', lastName, role, password: 'password-123' }));
    }
    const bob = must(await h.uc.userQueries.pageUsers(admin, { roles: '[API_USER]', sortBy: { username: 'asc' } })).users[0];
    assert.ok(bob);
    must(await h.uc.changeRoleAndStatus.changeRoleAndStatus(admin, { userId: bob.userId, status: 'BLOCKED' }));
    must(await h.uc.accounts.createAccount(admin, { userId: bob.userId, type: 'ORGANIZATION', subscriptionPlan: 'BASIC_MONTHLY', company: 'Bob Ltd' }));
  });
  after(async () => {
    await h?.close();
  });

  const names = (page: { users: Array<{ username: string }> }) => page.users.map((u) => u.username.slice(0, 1));

  it('filters by roles and status in bracket notation and counts all matches', async () => {
    const api = must(await h.uc.userQueries.pageUsers(admin, { roles: '[API_USER, POWER_USER]', pageSize: 10 }));
    assert.deepEqual(names(api), ['b', 'c', 'd']);
    assert.equal(api.totalRecords, 3);
    const blocked = must(await h.uc.userQueries.pageUsers(admin, { status: '[BLOCKED]' }));
    assert.deepEqual(names(blocked), ['b']);
    const both = must(await h.uc.userQueries.pageUsers(admin, { roles: '[API_USER]', status: '[ACTIVE]' }));
    assert.deepEqual(names(both), ['d']);
    const all = must(await h.uc.userQueries.pageUsers(admin, {}));
    assert.equal(all.totalRecords, 5);
  });

  it('sorts by the sortBy map and pages with a stable order', async () => {
    const byLastName = must(await h.uc.userQueries.pageUsers(admin, { sortBy: { lastName: 'desc' }, pageSize: 100 }));
    assert.deepEqual(
      byLastName.users.map((u) => u.lastName),
      ['Zed', 'Young', 'Xu', 'Wolf', 'User 1'],
    );
    const byRole = must(await h.uc.userQueries.pageUsers(admin, { sortBy: { roles: 'asc', username: 'desc' } }));
    assert.deepEqual(names(byRole), ['a', 'd', 'b', 'e', 'c']); // ADMIN, API_USER (d, b), GUEST, POWER_USER
    const page1 = must(await h.uc.userQueries.pageUsers(admin, { pageNumber: 1, pageSize: 2 }));
    assert.deepEqual(names(page1), ['c', 'd']);
    assert.deepEqual({ total: page1.totalRecords, number: page1.pageNumber, size: page1.pageSize }, { total: 5, number: 1, size: 2 });
    const beyond = must(await h.uc.userQueries.pageUsers(admin, { pageNumber: 9, pageSize: 2 }));
    assert.deepEqual(beyond.users, []);
    assert.equal(beyond.totalRecords, 5);
  });

  it('includes accounts on request only', async () => {
    const without = must(await h.uc.userQueries.pageUsers(admin, { status: '[BLOCKED]' }));
    assert.equal(without.users[0]?.account, undefined);
    const withAccount = must(await h.uc.userQueries.pageUsers(admin, { status: '[BLOCKED]', includeAccount: true }));
    assert.equal(withAccount.users[0]?.account?.company, 'Bob Ltd');
    assert.equal(withAccount.users[0]?.account?.subscriptionPlan, 'BASIC_MONTHLY');
  });

  it('is for ADMINs only and names every bad field', async () => {
    const power = await h.user('POWER_USER');
    const denied = await h.uc.userQueries.pageUsers(power, {});
    assert.ok(!denied.ok && denied.error.kind === 'forbidden');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ roles: '[ADMIN, KING]' }, 'roles'],
      [{ status: '[ACTIVE' }, 'status'],
      [{ sortBy: { password: 'asc' } }, 'sortBy.password'],
      [{ sortBy: { username: 'up' } }, 'sortBy.username'],
      [{ pageSize: 0 }, 'pageSize'],
      [{ pageSize: 101 }, 'pageSize'],
      [{ pageNumber: -1 }, 'pageNumber'],
      [{ includeAccount: 'yes' }, 'includeAccount'],
    ];
    for (const [input, field] of cases) {
      const r = await h.uc.userQueries.pageUsers(admin, input);
      assert.ok(!r.ok && r.error.kind === 'validation', field);
      assert.equal(r.error.field, field);
    }
  });
});
