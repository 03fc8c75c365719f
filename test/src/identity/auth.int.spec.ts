import assert from 'node:assert/strict';
import { createHmac, createPublicKey } from 'node:crypto';
import { ADMIN, claimsOf, errorBody, forgeToken, startIdentityStack, type IdentityStack } from './support.js';

describe('identity through the gateway: login, sessions, tokens and API keys', function () {
  this.timeout(60_000);
  let stack: IdentityStack;

  before(async () => {
    stack = await startIdentityStack();
  });
  after(async () => {
    await stack?.stop();
  });

  it('logs the first administrator in and answers the token shape of the issue', async () => {
    const answer = await stack.call('POST', '/v1/auth/login', { body: { username: 'Admin@Stormhook.test', password: ADMIN.password } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(Object.keys(answer.body).sort(), ['accessToken', 'expiresIn', 'refreshToken', 'type', 'username']);
    assert.equal(answer.body['username'], ADMIN.username);
    assert.equal(answer.body['type'], 'Bearer');
    assert.equal(answer.body['expiresIn'], 900);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    const claims = claimsOf(String(answer.body['accessToken']));
    assert.equal(claims['role'], 'ADMIN');
    assert.equal(claims['iss'], 'stormhook-identity');
    assert.equal(claims['aud'], 'stormhook-api');
    const me = await stack.call('GET', '/v1/users/me', { token: String(answer.body['accessToken']) });
    assert.equal(me.status, 200);
    assert.equal(me.body['roles'], 'ADMIN');
  });

  it('refuses wrong passwords and unknown users alike with 401, and names missing fields with 400', async () => {
    const wrong = await stack.call('POST', '/v1/auth/login', { body: { username: ADMIN.username, password: 'not-the-password' } });
    const unknown = await stack.call('POST', '/v1/auth/login', { body: { username: 'nobody@example.com', password: 'not-the-password' } });
    assert.equal(errorBody(wrong, 401, '/v1/auth/login').message, errorBody(unknown, 401, '/v1/auth/login').message);
    const missing = await stack.call('POST', '/v1/auth/login', { body: { username: ADMIN.username } });
    assert.match(errorBody(missing, 400, '/v1/auth/login').message, /password/);
    const badEmail = await stack.call('POST', '/v1/auth/login', { body: { username: 'not-an-email', password: 'x' } });
    assert.match(errorBody(badEmail, 400, '/v1/auth/login').message, /username/);
  });

  it('limits failed logins per user: the sixth answers 429 with Retry-After, even with the right password', async () => {
    const u = await stack.user('STANDARD_USER');
    for (let i = 0; i < 5; i++) {
      assert.equal((await stack.call('POST', '/v1/auth/login', { body: { username: u.username, password: 'wrong-password' } })).status, 401);
    }
    const limited = await stack.call('POST', '/v1/auth/login', { body: { username: u.username, password: u.password } });
    errorBody(limited, 429, '/v1/auth/login');
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After ${retryAfter}`);
  });

  it('refuses blocked users at login', async () => {
    const u = await stack.user('STANDARD_USER');
    const token = await stack.adminToken();
    assert.equal((await stack.call('PATCH', '/v1/users/update-role-status', { token, body: { userId: u.userId, status: 'BLOCKED' } })).status, 200);
    const blocked = await stack.call('POST', '/v1/auth/login', { body: { username: u.username, password: u.password } });
    assert.match(errorBody(blocked, 403, '/v1/auth/login').message, /blocked/);
    // Its earlier access token stops working at once: identity re-reads the user on every call.
    assert.equal((await stack.call('GET', '/v1/users/me', { token: u.token })).status, 401);
  });

  it('rotates refresh tokens; a reused one fails with 401 and ends the whole session', async () => {
    const u = await stack.user('STANDARD_USER');
    const first = await stack.login(u.username, u.password);
    const second = await stack.call('POST', '/v1/auth/refresh', { body: { refreshToken: first.refreshToken } });
    assert.equal(second.status, 200);
    assert.notEqual(second.body['refreshToken'], first.refreshToken);
    assert.notEqual(second.body['accessToken'], first.accessToken);
    const reused = await stack.call('POST', '/v1/auth/refresh', { body: { refreshToken: first.refreshToken } });
    errorBody(reused, 401, '/v1/auth/refresh');
    // The thief's reuse also killed the rotated token the owner holds.
    const afterTheft = await stack.call('POST', '/v1/auth/refresh', { body: { refreshToken: second.body['refreshToken'] } });
    errorBody(afterTheft, 401, '/v1/auth/refresh');
    const garbage = await stack.call('POST', '/v1/auth/refresh', { body: { refreshToken: 'abc.def' } });
    errorBody(garbage, 401, '/v1/auth/refresh');
  });

  it('logs out: the refresh token stops working, and a second logout is fine', async () => {
    const u = await stack.user('STANDARD_USER');
    const session = await stack.login(u.username, u.password);
    assert.equal((await stack.call('POST', '/v1/auth/logout', { body: { refreshToken: session.refreshToken } })).status, 204);
    assert.equal((await stack.call('POST', '/v1/auth/logout', { body: { refreshToken: session.refreshToken } })).status, 204);
    errorBody(await stack.call('POST', '/v1/auth/refresh', { body: { refreshToken: session.refreshToken } }), 401, '/v1/auth/refresh');
    errorBody(await stack.call('POST', '/v1/auth/logout', { body: {} }), 400, '/v1/auth/logout');
  });

  describe('access tokens', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const claims = (overrides: Record<string, unknown> = {}) => ({
      sub: 'c0ffee00-0000-4000-8000-000000000001',
      role: 'ADMIN',
      usr: 'forger@example.com',
      jti: 'x',
      iss: 'stormhook-identity',
      aud: 'stormhook-api',
      iat: now() - 10,
      nbf: now() - 10,
      exp: now() + 600,
      ...overrides,
    });

    it('answers 401 without credentials, with WWW-Authenticate', async () => {
      const answer = await stack.call('GET', '/v1/users/me');
      errorBody(answer, 401, '/v1/users/me');
      assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
      errorBody(await stack.call('GET', '/v1/users/me', { headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } }), 401, '/v1/users/me');
    });

    it('refuses a tampered token (role raised to ADMIN, signature kept)', async () => {
      const u = await stack.user('STANDARD_USER');
      const [header, payload, signature] = u.token.split('.');
      const raised = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()), role: 'ADMIN' })).toString('base64url');
      const answer = await stack.call('POST', '/v1/users/page', { token: `${header}.${raised}.${signature}`, body: {} });
      assert.equal(errorBody(answer, 401, '/v1/users/page').message, 'Invalid access token');
      assert.match(answer.headers.get('www-authenticate') ?? '', /invalid_token/);
    });

    it('refuses an expired token signed with the real key', async () => {
      const admin = claimsOf(await stack.adminToken());
      const expired = forgeToken(
        { alg: 'EdDSA', typ: 'JWT', kid: stack.kid },
        claims({ sub: admin['sub'], iat: now() - 7200, nbf: now() - 7200, exp: now() - 3600 }),
        stack.signingKey,
      );
      const answer = await stack.call('GET', '/v1/users/me', { token: expired });
      assert.equal(errorBody(answer, 401, '/v1/users/me').message, 'The access token has expired');
      // The same claims with a live expiry pass: the refusal above is the expiry, nothing else.
      const live = forgeToken({ alg: 'EdDSA', typ: 'JWT', kid: stack.kid }, claims({ sub: admin['sub'] }), stack.signingKey);
      assert.equal((await stack.call('GET', '/v1/users/me', { token: live })).status, 200);
    });

    it('refuses alg none, HS256 keyed with the public key, a foreign key and a wrong audience', async () => {
      const unsigned = forgeToken({ alg: 'none', typ: 'JWT', kid: stack.kid }, claims());
      errorBody(await stack.call('GET', '/v1/users/me', { token: unsigned }), 401, '/v1/users/me');
      const noneWithDot = `${unsigned}`; // header.payload. (empty signature)
      assert.ok(noneWithDot.endsWith('.'));

      const publicPem = createPublicKey(stack.signingKey).export({ format: 'pem', type: 'spki' }).toString();
      const hsInput = `${Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: stack.kid })).toString('base64url')}.${Buffer.from(JSON.stringify(claims())).toString('base64url')}`;
      const hs = `${hsInput}.${createHmac('sha256', publicPem).update(hsInput).digest('base64url')}`;
      errorBody(await stack.call('GET', '/v1/users/me', { token: hs }), 401, '/v1/users/me');

      const { generateKeyPairSync } = await import('node:crypto');
      const foreign = generateKeyPairSync('ed25519').privateKey;
      errorBody(await stack.call('GET', '/v1/users/me', { token: forgeToken({ alg: 'EdDSA', kid: stack.kid }, claims(), foreign) }), 401, '/v1/users/me');
      errorBody(
        await stack.call('GET', '/v1/users/me', { token: forgeToken({ alg: 'EdDSA', kid: stack.kid }, claims({ aud: 'someone-else' }), stack.signingKey) }),
        401,
        '/v1/users/me',
      );
    });
  });

  describe('API keys', () => {
    it('lets an API_USER create, use, list and revoke keys; the key is shown once and masked afterwards', async () => {
      const bot = await stack.user('API_USER');
      const created = await stack.call('POST', '/v1/api-keys/create', { token: bot.token, body: { name: 'billing export' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.headers.get('cache-control'), 'no-store');
      const apiKey = String(created.body['apiKey']);
      assert.match(apiKey, /^shk_[0-9a-f]+_/);

      const me = await stack.call('GET', '/v1/users/me', { apiKey });
      assert.equal(me.status, 200);
      assert.equal(me.body['userId'], bot.userId);

      const list = await stack.call('GET', '/v1/api-keys', { token: bot.token });
      assert.equal(list.status, 200);
      const keys = list.body['apiKeys'] as Array<Record<string, unknown>>;
      assert.equal(keys.length, 1);
      assert.equal(keys[0]?.['keyId'], created.body['keyId']);
      assert.ok(!JSON.stringify(list.body).includes(apiKey.split('_')[2] ?? '~'), 'the secret never appears again');
      assert.match(String(keys[0]?.['maskedKey']), /\*\*\*\*/);

      const revoked = await stack.call('DELETE', `/v1/api-keys/revoke/${String(created.body['keyId'])}`, { token: bot.token });
      assert.deepEqual(revoked.body, { keyId: created.body['keyId'], revoked: true });
      // Gateways trust a verified key for API_KEY_CACHE_TTL_MS (300 ms here), then identity refuses it.
      await new Promise((resolve) => setTimeout(resolve, 400));
      errorBody(await stack.call('GET', '/v1/users/me', { apiKey }), 401, '/v1/users/me');
    });

    it('refuses unknown and malformed keys with 401, and credentials of both kinds at once', async () => {
      errorBody(await stack.call('GET', '/v1/users/me', { apiKey: 'shk_0123456789abcdef_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }), 401, '/v1/users/me');
      errorBody(await stack.call('GET', '/v1/users/me', { apiKey: 'hello' }), 401, '/v1/users/me');
      const admin = await stack.adminToken();
      errorBody(await stack.call('GET', '/v1/users/me', { apiKey: 'hello', token: admin }), 401, '/v1/users/me');
    });

    it("keeps API keys for API_USERs, and other users' keys out of reach (404)", async () => {
      const human = await stack.user('STANDARD_USER');
      errorBody(await stack.call('POST', '/v1/api-keys/create', { token: human.token, body: {} }), 403, '/v1/api-keys/create');
      const bot = await stack.user('API_USER');
      const other = await stack.user('API_USER');
      const key = await stack.call('POST', '/v1/api-keys/create', { token: bot.token, body: {} });
      assert.equal(key.status, 201);
      errorBody(
        await stack.call('DELETE', `/v1/api-keys/revoke/${String(key.body['keyId'])}`, { token: other.token }),
        404,
        `/v1/api-keys/revoke/${String(key.body['keyId'])}`,
      );
      errorBody(await stack.call('GET', `/v1/api-keys?userId=${bot.userId}`, { token: other.token }), 404, '/v1/api-keys');
      // An ADMIN manages anyone's keys.
      const admin = await stack.adminToken();
      const forBot = await stack.call('POST', '/v1/api-keys/create', { token: admin, body: { userId: bot.userId, name: 'by admin' } });
      assert.equal(forBot.status, 201);
      const listed = await stack.call('GET', `/v1/api-keys?userId=${bot.userId}`, { token: admin });
      assert.equal((listed.body['apiKeys'] as unknown[]).length, 2);
      errorBody(await stack.call('POST', '/v1/api-keys/create', { token: admin, body: { expiresAt: 5 } }), 400, '/v1/api-keys/create');
    });
  });
});
