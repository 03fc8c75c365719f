import assert from 'node:assert/strict';
import { ApiClient } from '@stormhook/console/api/client';
import { memoryCredentialStore } from '@stormhook/console/api/credentials';

interface Seen {
  path: string;
  auth: string | undefined;
  body: unknown;
}

/** A fake gateway: login, refresh (rotating tokens, answering after a pause) and one data operation that wants a current token. */
function fakeGateway(clock: { now: number }) {
  const seen: Seen[] = [];
  let issued = 0;
  let valid = new Set<string>();
  const tokens = () => {
    issued += 1;
    const access = `access-${issued}`;
    valid = new Set([access]);
    return { username: 'u@example.com', type: 'Bearer', accessToken: access, refreshToken: `refresh-${issued}`, expiresIn: 900 };
  };
  const fetchImpl = async (path: string, init?: RequestInit): Promise<Response> => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    seen.push({ path, auth: headers['Authorization'] ?? headers['X-API-Key'], body });
    if (path === '/v1/auth/login') return Response.json(tokens());
    if (path === '/v1/auth/refresh') {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return body.refreshToken === `refresh-${issued}`
        ? Response.json(tokens())
        : Response.json({ status: 401, message: 'refresh token ended' }, { status: 401 });
    }
    if (path === '/v1/users/me' && headers['X-API-Key'] === 'good-key') return Response.json({ userId: 'x' });
    const bearer = (headers['Authorization'] ?? '').replace('Bearer ', '');
    if (!valid.has(bearer) && headers['X-API-Key'] !== 'good-key')
      return Response.json({ status: 401, error: 'Unauthorized', message: 'token expired' }, { status: 401 });
    if (path === '/v1/bad')
      return Response.json({ status: 400, error: 'Bad Request', message: 'request body invalid', messages: ['radius: must be <= 200000'] }, { status: 400 });
    return Response.json({ ok: true, at: clock.now });
  };
  return { seen, fetchImpl, endTokens: () => (valid = new Set()) };
}

describe("the console's API client", () => {
  it('refreshes the access token once, before it expires, for requests made together', async () => {
    const clock = { now: 1_000_000 };
    const gateway = fakeGateway(clock);
    const client = new ApiClient(memoryCredentialStore(), gateway.fetchImpl, () => clock.now);
    assert.equal((await client.signIn('u@example.com', 'pw')).ok, true);
    clock.now += 900_000 - 10_000;
    const answers = await Promise.all([client.get('/v1/a'), client.get('/v1/b'), client.get('/v1/c')]);
    assert.deepEqual(
      answers.map((a) => a.ok),
      [true, true, true],
    );
    assert.equal(gateway.seen.filter((s) => s.path === '/v1/auth/refresh').length, 1);
    assert.deepEqual(
      gateway.seen.filter((s) => s.path.startsWith('/v1/') && !s.path.startsWith('/v1/auth')).map((s) => s.auth),
      ['Bearer access-2', 'Bearer access-2', 'Bearer access-2'],
    );
  });

  it('refreshes and retries once on a 401, and signs out when the refresh is refused', async () => {
    const clock = { now: 1_000_000 };
    const gateway = fakeGateway(clock);
    const store = memoryCredentialStore();
    const client = new ApiClient(store, gateway.fetchImpl, () => clock.now);
    let signedOut = 0;
    client.onSignedOut = () => (signedOut += 1);
    await client.signIn('u@example.com', 'pw');
    gateway.endTokens();
    assert.equal((await client.get('/v1/a')).ok, true, 'a fresh token after one refresh');
    // The stored refresh token no longer matches the server's: the session is over.
    store.save({ kind: 'tokens', username: 'u', accessToken: 'gone', refreshToken: 'stale', expiresAtMs: clock.now + 900_000 });
    const answer = await client.get('/v1/a');
    assert.deepEqual(answer, { ok: false, status: 401, message: 'signed out: please sign in again' });
    assert.equal(signedOut, 1);
    assert.equal(store.load(), undefined);
  });

  it('keeps an API key only once the API accepted it, and sends it as X-API-Key', async () => {
    const gateway = fakeGateway({ now: 0 });
    const store = memoryCredentialStore();
    const client = new ApiClient(store, gateway.fetchImpl);
    assert.equal((await client.signInWithApiKey('bad-key')).ok, false);
    assert.equal(store.load(), undefined);
    assert.equal((await client.signInWithApiKey('good-key')).ok, true);
    assert.equal((await client.get('/v1/a')).ok, true);
    assert.equal(gateway.seen.at(-1)?.auth, 'good-key');
  });

  it('turns an ErrorResponse into its message and details', async () => {
    const gateway = fakeGateway({ now: 0 });
    const client = new ApiClient(memoryCredentialStore(), gateway.fetchImpl);
    await client.signInWithApiKey('good-key');
    assert.deepEqual(await client.post('/v1/bad', {}), { ok: false, status: 400, message: 'request body invalid: radius: must be <= 200000' });
  });
});
