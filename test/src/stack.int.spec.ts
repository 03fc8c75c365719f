import assert from 'node:assert/strict';
import { checkHealth } from '@stormhook/grpc';
import { LIVENESS_SERVICE } from '@stormhook/service-kit';
import { ApiSession } from './support/api-session.js';
import { startInProcessStack, type InProcessStack } from './support/stack.js';

describe('the whole stack in one process (real Kafka and database)', () => {
  let stack: InProcessStack;

  before(async function () {
    // Seven services, each joining its consumer groups, in one process: about 30 s on 2 busy cores.
    this.timeout(120_000);
    stack = await startInProcessStack();
  });

  after(async () => {
    await stack?.stop();
  });

  /** /v1/health as an ADMIN reads it: only ADMIN sees the components. */
  const adminHealth = async (): Promise<Response> => {
    const token = await new ApiSession(stack.baseUrl, 'stk').adminToken();
    return fetch(`${stack.baseUrl}/v1/health`, { headers: { authorization: `Bearer ${token}` } });
  };

  it('reports every service, Kafka and the database up on /v1/health to ADMIN, the bare status to anyone', async () => {
    const anonymous = await fetch(`${stack.baseUrl}/v1/health`);
    assert.equal(anonymous.status, 200);
    assert.deepEqual(await anonymous.json(), { status: 'up' });
    const response = await adminHealth();
    const body = (await response.json()) as { status: string; components: Record<string, { status: string }> };
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(body.status, 'up');
    assert.deepEqual(Object.keys(body.components).sort(), ['alarm-matcher', 'database', 'geo', 'identity', 'ingest', 'kafka', 'notifier', 'query']);
    for (const [name, component] of Object.entries(body.components)) assert.equal(component.status, 'up', name);
  });

  it('gives each service its own database under the test prefix', async () => {
    const names = Object.values(stack.services).map((s) => s.platform.mongo.db.databaseName);
    assert.equal(new Set(names).size, 6);
    for (const name of names) assert.ok(name.startsWith(`${stack.dbPrefix}_`), name);
  });

  it('answers the liveness health entry of every gRPC service, which does not follow its dependencies', async () => {
    for (const [name, service] of Object.entries(stack.services)) {
      assert.equal(await checkHealth(`127.0.0.1:${service.port}`, LIVENESS_SERVICE), 'SERVING', name);
    }
  });

  it('reports a stopped service as down, naming it, with status 503', async () => {
    await stack.services['notifier']!.stop();
    // The report of a second ago may still answer (one round of checks serves every call for a second).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const response = await adminHealth();
    const body = (await response.json()) as { status: string; components: Record<string, { status: string; detail?: string }> };
    assert.equal(response.status, 503);
    assert.equal(body.components['notifier']?.status, 'down');
    assert.match(body.components['notifier']?.detail ?? '', /UNREACHABLE/);
    assert.equal(body.components['identity']?.status, 'up');
    delete stack.services['notifier'];
  });
});
