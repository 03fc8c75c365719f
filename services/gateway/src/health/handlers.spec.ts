import assert from 'node:assert/strict';
import type { RequestHandler } from 'express';
import type { RouteSpec } from '../contract/route-spec.js';
import { setAuthState } from '../http/auth-state.js';
import { withDataSource } from './data-source.js';
import type { HealthPort, HealthReport } from './health-port.js';
import { request, serve, type RunningApp } from '../test-support/serve.js';

/** Stands in for the access guards' identification (http/auth.ts): `Bearer admin` is an ADMIN, `Bearer power` a POWER_USER. */
const identify: RequestHandler = (req, _res, next) => {
  const role = { 'Bearer admin': 'ADMIN', 'Bearer power': 'POWER_USER' }[req.headers.authorization ?? ''];
  if (role) setAuthState(req, { principal: { userId: 'u1', accountId: 'a1', role, username: 'x@example.com', via: 'access-token' } });
  next();
};
const guards = (operation: RouteSpec): RequestHandler[] => (operation.identifiesCaller ? [identify] : []);
const ADMIN = { authorization: 'Bearer admin' };

/** A fake port whose answer each test sets. */
class FakeHealth implements HealthPort {
  next: HealthReport | Error = { status: 'up', components: {} };
  async check(): Promise<HealthReport> {
    if (this.next instanceof Error) throw this.next;
    return this.next;
  }
}

describe('health endpoints', () => {
  const health = new FakeHealth();
  let app: RunningApp;
  before(async () => {
    app = await serve({ health, guards });
  });
  after(() => app.close());

  it('shows the component map to ADMIN only; anyone else, POWER_USER included, gets the bare status', async () => {
    health.next = { status: 'up', components: { kafka: { status: 'up' }, identity: { status: 'up' } } };
    assert.deepEqual((await request(app.baseUrl, 'GET', '/v1/health')).body, { status: 'up' });
    assert.deepEqual((await request(app.baseUrl, 'GET', '/v1/health', undefined, { authorization: 'Bearer power' })).body, { status: 'up' });
    health.next = { status: 'up', components: { kafka: { status: 'down', detail: 'broker at 10.0.0.7:9092' } } };
    const down = await request(app.baseUrl, 'GET', '/v1/health');
    assert.equal(down.status, 503);
    assert.deepEqual(down.body, { status: 'down' }, 'no address or detail for anonymous callers');
  });

  it('answers 200 with the component map when everything is up', async () => {
    health.next = { status: 'up', components: { kafka: { status: 'up' }, identity: { status: 'up' } } };
    const answer = await request(app.baseUrl, 'GET', '/v1/health', undefined, ADMIN);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, health.next);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    const ready = await request(app.baseUrl, 'GET', '/v1/health/ready');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'up' });
  });

  it('tells where the data comes from when the stack labels it, and says nothing otherwise', async () => {
    health.next = { status: 'up', components: { kafka: { status: 'up' } } };
    const labelled = await serve({ health: withDataSource(health, 'SYNTHETIC weather from the feed simulator'), guards });
    try {
      const answer = await request(labelled.baseUrl, 'GET', '/v1/health', undefined, ADMIN);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { status: 'up', components: { kafka: { status: 'up' } }, dataSource: 'SYNTHETIC weather from the feed simulator' });
      const anyone = await request(labelled.baseUrl, 'GET', '/v1/health');
      assert.deepEqual(anyone.body, { status: 'up', dataSource: 'SYNTHETIC weather from the feed simulator' }, 'the notice is for everyone');
    } finally {
      await labelled.close();
    }
    assert.equal(withDataSource(health, undefined), health, 'no notice: the port as it is');
    assert.equal(((await request(app.baseUrl, 'GET', '/v1/health')).body as Record<string, unknown>)['dataSource'], undefined);
  });

  it('answers 503 with the component map when a component is down', async () => {
    health.next = {
      status: 'up', // an inconsistent port must not hide a component that is down
      components: { kafka: { status: 'up' }, database: { status: 'down', detail: 'connection refused' } },
    };
    const answer = await request(app.baseUrl, 'GET', '/v1/health', undefined, ADMIN);
    assert.equal(answer.status, 503);
    assert.deepEqual(answer.body, { status: 'down', components: health.next.components });
    const ready = await request(app.baseUrl, 'GET', '/v1/health/ready');
    assert.equal(ready.status, 503);
    assert.deepEqual(ready.body, { status: 'down', down: ['database'] });
  });

  it('treats a failing probe as down rather than a 500', async () => {
    health.next = new Error('probe timed out');
    const answer = await request(app.baseUrl, 'GET', '/v1/health', undefined, ADMIN);
    assert.equal(answer.status, 503);
    assert.equal(answer.body['status'], 'down');
    assert.deepEqual(answer.body['components'], { health: { status: 'down', detail: 'probe timed out' } });
  });

  describe('readiness limited to what every request needs', () => {
    let scoped: RunningApp;
    before(async () => {
      scoped = await serve({ health, readiness: ['identity', 'database'] });
    });
    after(() => scoped.close());

    it('stays ready while a backing service outside the list is down, though /v1/health says down', async () => {
      health.next = {
        status: 'down',
        components: { identity: { status: 'up' }, database: { status: 'up' }, query: { status: 'down', detail: 'NOT_SERVING' } },
      };
      assert.equal((await request(scoped.baseUrl, 'GET', '/v1/health')).status, 503);
      const ready = await request(scoped.baseUrl, 'GET', '/v1/health/ready');
      assert.equal(ready.status, 200);
      assert.deepEqual(ready.body, { status: 'up' });
    });

    it('is not ready when a listed component is down or missing from the report, naming it', async () => {
      health.next = { status: 'down', components: { identity: { status: 'down', detail: 'UNAVAILABLE' }, query: { status: 'up' } } };
      const ready = await request(scoped.baseUrl, 'GET', '/v1/health/ready');
      assert.equal(ready.status, 503);
      assert.deepEqual(ready.body, { status: 'down', down: ['identity', 'database'] });
    });

    it('is not ready when the probe itself fails', async () => {
      health.next = new Error('probe timed out');
      const ready = await request(scoped.baseUrl, 'GET', '/v1/health/ready');
      assert.equal(ready.status, 503);
      assert.deepEqual(ready.body, { status: 'down', down: ['identity', 'database'] });
    });
  });

  it('reports liveness regardless of the components', async () => {
    health.next = { status: 'down', components: { kafka: { status: 'down' } } };
    const answer = await request(app.baseUrl, 'GET', '/v1/health/live');
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { status: 'up' });
  });
});
