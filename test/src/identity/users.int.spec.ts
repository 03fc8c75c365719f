import assert from 'node:assert/strict';
import { ADMIN, errorBody, LINK_ORIGIN, NIL_UUID, startIdentityStack, type IdentityStack } from './support.js';

describe('users through the gateway (interface.md 4.16 - 4.19)', function () {
  this.timeout(60_000);
  let stack: IdentityStack;
  let admin: string;

  before(async () => {
    stack = await startIdentityStack();
    admin = await stack.adminToken();
  });
  after(async () => {
    await stack?.stop();
  });

  describe('POST /v1/users/create', () => {
    it('creates an ACTIVE user with an initial password; nothing secret comes back', async () => {
      const answer = await stack.call('POST', '/v1/users/create', {
        token: admin,
        body: {
          username: 'Ada.Lovelace@Example.com',
          firstName: 'Ada',
          lastName: 'Lovelace',
          midName: 'King',
          locale: 'en_GB',
          timezone: 'Europe/London',
          role: 'POWER_USER',
          password: 'analytical-engine',
        },
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.deepEqual(
        { ...answer.body, userId: undefined },
        {
          userId: undefined,
          username: 'ada.lovelace@example.com',
          firstName: 'Ada',
          midName: 'King',
          lastName: 'Lovelace',
          locale: 'en_GB',
          timezone: 'Europe/London',
          roles: 'POWER_USER',
          status: 'ACTIVE',
        },
      );
      assert.ok(!JSON.stringify(answer.body).includes('analytical'));
      await stack.login('ada.lovelace@example.com', 'analytical-engine');
      const again = await stack.call('POST', '/v1/users/create', {
        token: admin,
        body: { username: 'ada.lovelace@EXAMPLE.com', firstName: 'A', lastName: 'L', role: 'GUEST', password: 'another-one-1' },
      });
      errorBody(again, 409, '/v1/users/create');
    });

    it('invites a user by e-mail (a message request on Kafka); the invitation sets the password and activates', async () => {
      const answer = await stack.call('POST', '/v1/users/create', {
        token: admin,
        body: {
          username: 'invitee@example.com',
          firstName: 'In',
          lastName: 'Vitee',
          role: 'API_USER',
          invite: true,
          invitationPageLink: `${LINK_ORIGIN}/welcome`,
        },
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.equal(answer.body['status'], 'INACTIVE');
      const invitation = answer.body['invitation'] as Record<string, unknown>;
      assert.equal(invitation['sent'], true);
      assert.ok(!JSON.stringify(answer.body).includes('token'), 'the token is in the e-mail only');
      const mail = await stack.mailbox.next('invitee@example.com', 'MESSAGE_TEMPLATE_INVITATION');
      assert.equal(mail.channel, 'MESSAGE_CHANNEL_EMAIL');
      const link = new URL(mail.params['link'] ?? '');
      assert.equal(link.origin, LINK_ORIGIN);
      errorBody(await stack.call('POST', '/v1/auth/login', { body: { username: 'invitee@example.com', password: 'whatever-it-is' } }), 401, '/v1/auth/login');
      const accepted = await stack.call('POST', '/v1/users/password-reset', {
        body: { userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), newPassword: 'my-own-password' },
      });
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
      await stack.login('invitee@example.com', 'my-own-password');
    });

    it('accepts the role under `roles`, the name the User resource uses, and `role` as its alias', async () => {
      const answer = await stack.call('POST', '/v1/users/create', {
        token: admin,
        body: { username: 'roles-field@example.com', firstName: 'R', lastName: 'F', roles: 'STANDARD_USER', password: 'password-ok-1' },
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.equal(answer.body['roles'], 'STANDARD_USER');
      const both = { username: 'both@example.com', firstName: 'B', lastName: 'O', roles: 'GUEST', role: 'GUEST', password: 'password-ok-1' };
      assert.match(
        errorBody(await stack.call('POST', '/v1/users/create', { token: admin, body: both }), 400, '/v1/users/create').message,
        /exactly one of roles/,
      );
      const neither = { username: 'neither@example.com', firstName: 'N', lastName: 'E', password: 'password-ok-1' };
      assert.match(
        errorBody(await stack.call('POST', '/v1/users/create', { token: admin, body: neither }), 400, '/v1/users/create').message,
        /exactly one of roles/,
      );
      assert.match(
        errorBody(await stack.call('POST', '/v1/users/create', { token: admin, body: { ...neither, roles: 'ROOT' } }), 400, '/v1/users/create').message,
        /roles must be one of/,
      );
    });

    it('names the field of every validation error', async () => {
      const base = { username: 'v@example.com', firstName: 'V', lastName: 'W', role: 'GUEST', password: 'password-ok-1' };
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ ...base, username: 'not-an-email' }, /username/],
        [{ ...base, role: 'ROOT' }, /role/],
        [{ ...base, lastName: undefined }, /lastName is required/],
        [{ ...base, password: 'short' }, /password/],
        [{ ...base, locale: 'tr-TR' }, /locale/],
        [{ ...base, timezone: 'Mars/Olympus' }, /timezone/],
        [{ ...base, password: undefined, invite: true }, /invitationPageLink/],
        [{ ...base, invite: true }, /password/],
        [{ ...base, isAdmin: true }, /isAdmin is not a known field/],
        [{ ...base, password: undefined, invite: true, invitationPageLink: 'https://evil.example/steal' }, /invitationPageLink/],
      ];
      for (const [body, field] of cases) {
        const answer = await stack.call('POST', '/v1/users/create', { token: admin, body });
        assert.match(errorBody(answer, 400, '/v1/users/create').message, field, JSON.stringify(body));
      }
    });
  });

  describe('PATCH /v1/users/update-role-status', () => {
    it("changes role and status; never the administrator's own; 404 for nobody", async () => {
      const u = await stack.user('STANDARD_USER');
      const promoted = await stack.call('PATCH', '/v1/users/update-role-status', { token: admin, body: { userId: u.userId, role: 'EXTENDED_USER' } });
      assert.equal(promoted.status, 200);
      assert.equal(promoted.body['roles'], 'EXTENDED_USER');
      // The user's old token still says STANDARD_USER; identity acts on the stored role.
      assert.equal((await stack.call('GET', '/v1/users/me', { token: u.token })).body['roles'], 'EXTENDED_USER');
      const me = await stack.call('GET', '/v1/users/me', { token: admin });
      errorBody(
        await stack.call('PATCH', '/v1/users/update-role-status', { token: admin, body: { userId: me.body['userId'], role: 'GUEST' } }),
        403,
        '/v1/users/update-role-status',
      );
      errorBody(
        await stack.call('PATCH', '/v1/users/update-role-status', { token: admin, body: { userId: NIL_UUID, status: 'BLOCKED' } }),
        404,
        '/v1/users/update-role-status',
      );
      assert.match(
        errorBody(
          await stack.call('PATCH', '/v1/users/update-role-status', { token: admin, body: { userId: u.userId, status: 'GONE' } }),
          400,
          '/v1/users/update-role-status',
        ).message,
        /status/,
      );
      assert.match(
        errorBody(await stack.call('PATCH', '/v1/users/update-role-status', { token: admin, body: { userId: u.userId } }), 400, '/v1/users/update-role-status')
          .message,
        /role/,
      );
      errorBody(
        await stack.call('PATCH', '/v1/users/update-role-status', { token: u.token, body: { userId: u.userId, role: 'ADMIN' } }),
        403,
        '/v1/users/update-role-status',
      );
    });
  });

  describe('GET /v1/users/me and /v1/users/{userId}', () => {
    it('answers the caller with the account, whose id is how a caller reuses its webhook', async () => {
      const u = await stack.user('API_USER', 'TRIAL');
      const me = await stack.call('GET', '/v1/users/me', { token: u.token });
      assert.equal(me.status, 200);
      assert.equal(me.body['userId'], u.userId);
      const account = me.body['account'] as Record<string, unknown>;
      assert.equal(account['id'], u.accountId);
      assert.equal(account['subscriptionPlan'], 'TRIAL');
      assert.equal(account['emailVerified'], false);
    });

    it('is for POWER_USER and above (others use /v1/users/me); 404 for nobody, 400 naming userId', async () => {
      const standard = await stack.user('STANDARD_USER');
      const other = await stack.user('GUEST');
      const power = await stack.user('POWER_USER');
      errorBody(await stack.call('GET', `/v1/users/${standard.userId}`, { token: standard.token }), 403, `/v1/users/${standard.userId}`);
      assert.equal((await stack.call('GET', `/v1/users/${power.userId}`, { token: power.token })).status, 200);
      errorBody(await stack.call('GET', `/v1/users/${other.userId}`, { token: standard.token }), 403, `/v1/users/${other.userId}`);
      assert.equal((await stack.call('GET', `/v1/users/${other.userId}`, { token: power.token })).body['userId'], other.userId);
      errorBody(await stack.call('GET', `/v1/users/${NIL_UUID}`, { token: power.token }), 404, `/v1/users/${NIL_UUID}`);
      assert.match(errorBody(await stack.call('GET', '/v1/users/not-a-uuid', { token: power.token }), 400, '/v1/users/not-a-uuid').message, /userId/);
    });
  });

  describe('POST /v1/users/page', () => {
    it('filters with the bracket notation, sorts, pages and includes accounts', async () => {
      await stack.user('EXTENDED_USER', 'TRIAL');
      await stack.user('EXTENDED_USER');
      const page = await stack.call('POST', '/v1/users/page', {
        token: admin,
        body: {
          roles: '[EXTENDED_USER, ADMIN]',
          status: '[ACTIVE]',
          sortBy: { roles: 'asc', username: 'asc' },
          pageNumber: 0,
          pageSize: 2,
          includeAccount: true,
        },
      });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      const users = page.body['users'] as Array<Record<string, unknown>>;
      assert.equal(page.body['pageSize'], 2);
      assert.equal(page.body['pageNumber'], 0);
      assert.ok(Number(page.body['totalRecords']) >= 3);
      assert.equal(users.length, 2);
      assert.equal(users[0]?.['username'], ADMIN.username, 'ADMIN sorts before EXTENDED_USER');
      assert.ok(users.every((u) => u['status'] === 'ACTIVE' && ['ADMIN', 'EXTENDED_USER'].includes(String(u['roles']))));
      const withArray = await stack.call('POST', '/v1/users/page', { token: admin, body: { roles: ['EXTENDED_USER'], includeAccount: true, pageSize: 100 } });
      const extended = withArray.body['users'] as Array<Record<string, unknown>>;
      assert.ok(extended.length >= 2 && extended.every((u) => u['roles'] === 'EXTENDED_USER'));
      assert.ok(extended.some((u) => u['account'] !== undefined) && extended.some((u) => u['account'] === undefined));
    });

    it('names bad filters, sort fields and page sizes', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ roles: '[ADMIN, ROOT]' }, /roles/],
        [{ status: '[ACTIVE' }, /status/],
        [{ pageSize: 0 }, /pageSize/],
        [{ pageSize: 101 }, /pageSize/],
        [{ pageNumber: -1 }, /pageNumber/],
        [{ sortBy: { password: 'asc' } }, /sortBy/],
        [{ sortBy: { username: 'up' } }, /sortBy/],
      ];
      for (const [body, field] of cases) {
        assert.match(errorBody(await stack.call('POST', '/v1/users/page', { token: admin, body }), 400, '/v1/users/page').message, field, JSON.stringify(body));
      }
    });
  });

  describe('password reset (4.18)', () => {
    it('answers 202 whether or not the user exists, and mails a single-use link to existing users only', async () => {
      const u = await stack.user('STANDARD_USER');
      const known = await stack.call('POST', '/v1/users/password-reset-request', { body: { username: u.username, resetPageLink: `${LINK_ORIGIN}/reset` } });
      const unknown = await stack.call('POST', '/v1/users/password-reset-request', {
        body: { username: 'nobody-here@example.com', resetPageLink: `${LINK_ORIGIN}/reset` },
      });
      assert.equal(known.status, 202);
      assert.deepEqual(unknown.body, known.body);
      assert.equal(unknown.status, 202);
      const mail = await stack.mailbox.next(u.username, 'MESSAGE_TEMPLATE_PASSWORD_RESET');
      assert.equal(stack.mailbox.count('nobody-here@example.com', 'MESSAGE_TEMPLATE_PASSWORD_RESET'), 0);
      const link = new URL(mail.params['link'] ?? '');
      const userId = link.searchParams.get('userId');
      const token = link.searchParams.get('token');
      assert.equal(userId, u.userId);

      const done = await stack.call('POST', '/v1/users/password-reset', {
        body: { userId, token, newPassword: 'brand-new-password', loginPageLink: `${LINK_ORIGIN}/login?from=reset` },
      });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      const redirect = new URL(String(done.body['redirectTo']));
      assert.equal(`${redirect.origin}${redirect.pathname}`, `${LINK_ORIGIN}/login`);
      assert.equal(redirect.searchParams.get('from'), 'reset');
      assert.equal(redirect.searchParams.get('message'), done.body['message']);
      await stack.login(u.username, 'brand-new-password');
      errorBody(await stack.call('POST', '/v1/auth/login', { body: { username: u.username, password: u.password } }), 401, '/v1/auth/login');

      const reused = await stack.call('POST', '/v1/users/password-reset', { body: { userId, token, newPassword: 'yet-another-password' } });
      assert.match(errorBody(reused, 400, '/v1/users/password-reset').message, /invalid, already used or expired/);
    });

    it('puts no reset or invitation token on the bus: the raw records hold none of its forms, the notifier opens a working one', async () => {
      const u = await stack.user('STANDARD_USER');
      await stack.call('POST', '/v1/users/password-reset-request', { body: { username: u.username, resetPageLink: `${LINK_ORIGIN}/reset` } });
      const invited = await stack.call('POST', '/v1/users/create', {
        token: admin,
        body: {
          username: 'bus-invitee@example.com',
          firstName: 'Bus',
          lastName: 'Reader',
          role: 'API_USER',
          invite: true,
          invitationPageLink: `${LINK_ORIGIN}/welcome`,
        },
      });
      assert.equal(invited.status, 201, JSON.stringify(invited.body));
      const mails = [
        { mail: await stack.mailbox.next(u.username, 'MESSAGE_TEMPLATE_PASSWORD_RESET'), password: 'reset-by-sealed-link' },
        { mail: await stack.mailbox.next('bus-invitee@example.com', 'MESSAGE_TEMPLATE_INVITATION'), password: 'invited-by-sealed-link' },
      ];
      const raw = Buffer.concat(stack.mailbox.rawRecords);
      for (const { mail, password } of mails) {
        const link = new URL(mail.params['link'] ?? '');
        const token = link.searchParams.get('token') ?? '';
        assert.ok(token.length >= 16, 'the notifier opened a link with a token');
        const forms = [
          token,
          encodeURIComponent(token),
          Buffer.from(token).toString('base64'),
          Buffer.from(token).toString('base64url'),
          Buffer.from(token).toString('hex'),
        ];
        const decoded = Buffer.from(token, 'base64url');
        forms.push(decoded.toString('hex'), decoded.toString('base64'));
        for (const form of forms) assert.ok(!raw.toString('latin1').includes(form), `a reader of the topic finds the token as "${form.slice(0, 6)}…"`);
        assert.ok(!raw.includes(decoded), 'the token bytes are on the bus');
        assert.ok(!raw.toString('latin1').includes(mail.params['link'] ?? '-'));
        const used = await stack.call('POST', '/v1/users/password-reset', { body: { userId: link.searchParams.get('userId'), token, newPassword: password } });
        assert.equal(used.status, 200, JSON.stringify(used.body));
      }
      await stack.login(u.username, 'reset-by-sealed-link');
      await stack.login('bus-invitee@example.com', 'invited-by-sealed-link');
    });

    it('names bad fields and refuses links to foreign origins', async () => {
      const foreign = await stack.call('POST', '/v1/users/password-reset-request', {
        body: { username: 'x@example.com', resetPageLink: 'https://evil.example/reset' },
      });
      assert.match(errorBody(foreign, 400, '/v1/users/password-reset-request').message, /resetPageLink/);
      const missing = await stack.call('POST', '/v1/users/password-reset-request', { body: { username: 'x@example.com' } });
      assert.match(errorBody(missing, 400, '/v1/users/password-reset-request').message, /resetPageLink is required/);
      const weak = await stack.call('POST', '/v1/users/password-reset', { body: { userId: NIL_UUID, token: 'abc', newPassword: 'short' } });
      assert.match(errorBody(weak, 400, '/v1/users/password-reset').message, /newPassword/);
      const wrong = await stack.call('POST', '/v1/users/password-reset', { body: { userId: NIL_UUID, token: 'abc', newPassword: 'long-enough-password' } });
      assert.match(errorBody(wrong, 400, '/v1/users/password-reset').message, /invalid, already used or expired/);
    });
  });
});
