import assert from 'node:assert/strict';
import { errorBody, startIdentityStack, type IdentityStack } from './support.js';

/**
 * Behind the chart's ingress every request comes from the ingress controller's address. With
 * HTTP_TRUST_PROXY naming it (loopback here: the test client is the "proxy"), the per-address login
 * limit counts the client X-Forwarded-For names, IPv6 clients by their /64, so one client's failed
 * logins do not lock out everyone else behind the same proxy.
 */
describe('per-address login limits behind a trusted proxy', function () {
  this.timeout(120_000);
  let stack: IdentityStack;

  before(async () => {
    stack = await startIdentityStack({}, { gatewayEnv: { HTTP_TRUST_PROXY: 'loopback' } });
  });
  after(async () => {
    await stack?.stop();
  });

  const login = (forwardedFor: string, username: string, password: string) =>
    stack.call('POST', '/v1/auth/login', { body: { username, password }, headers: { 'x-forwarded-for': forwardedFor } });

  /** 30 failed logins (the per-address limit), each for another unknown user so the per-user limit stays out of it. */
  async function thirtyFailures(forwardedFor: string, tag: string): Promise<void> {
    for (let i = 0; i < 30; i++) {
      assert.equal((await login(forwardedFor, `nobody-${tag}-${i}@example.com`, 'wrong-password')).status, 401);
    }
  }

  it('30 failed logins from one IPv4 client lock that client out, not another client behind the same proxy', async () => {
    const u = await stack.user('STANDARD_USER');
    await thirtyFailures('203.0.113.7', 'v4');
    errorBody(await login('203.0.113.7', u.username, u.password), 429, '/v1/auth/login');
    // A client cannot pick another address by prepending one: the proxy's own entry is the last.
    errorBody(await login('198.51.100.1, 203.0.113.7', u.username, u.password), 429, '/v1/auth/login');
    assert.equal((await login('198.51.100.9', u.username, u.password)).status, 200);
  });

  it('counts an IPv6 client by its /64: another address in it stays locked, another /64 does not', async () => {
    const u = await stack.user('STANDARD_USER');
    await thirtyFailures('2001:db8:1:2::1', 'v6');
    errorBody(await login('2001:db8:1:2::beef', u.username, u.password), 429, '/v1/auth/login');
    assert.equal((await login('2001:db8:1:3::1', u.username, u.password)).status, 200);
  });
});
