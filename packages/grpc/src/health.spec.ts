import assert from 'node:assert/strict';
import { grpcHealthV1 } from '@stormhook/proto';
import { checkHealth } from './check-health.js';
import { createClient } from './client.js';
import { GrpcError, GrpcStatus } from './errors.js';
import { createGrpcServer, type GrpcServer } from './server.js';
import { ProbeService, memoryLogger, sleep, startProbeServer } from './test-support.js';

const PROBE = 'stormhook.test.v1.ProbeService';

/** Reads a stream in the background so a test can look at what arrived so far. */
function collect<T>(stream: AsyncIterable<T>): { items: T[]; done: Promise<unknown> } {
  const items: T[] = [];
  const done = (async () => {
    for await (const item of stream) items.push(item);
  })().catch((error: unknown) => error);
  return { items, done };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await sleep(10);
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('health service', () => {
  let server: GrpcServer;
  let address: string;
  const handlers = {
    echo: async (p: { lng: number; lat: number }) => p,
    fail: async () => ({ lng: 0, lat: 0 }),
    points: async function* () {},
    collect: async () => ({ points: [] }),
    mirror: async function* () {},
  };

  beforeEach(async () => {
    ({ server, address } = await startProbeServer(handlers));
  });
  afterEach(() => server.shutdown());

  it('reports SERVING, then NOT_SERVING after setStatus, for a service and for the whole server', async () => {
    assert.equal(await checkHealth(address), 'SERVING');
    assert.equal(await checkHealth(address, PROBE), 'SERVING');

    server.health.setStatus(PROBE, 'NOT_SERVING');
    assert.equal(await checkHealth(address, PROBE), 'NOT_SERVING');
    assert.equal(await checkHealth(address), 'SERVING');

    server.health.setStatus('', 'NOT_SERVING');
    assert.equal(await checkHealth(address), 'NOT_SERVING');
    assert.equal(server.health.getStatus(''), 'NOT_SERVING');
  });

  it('says UNKNOWN for a service the server does not have and UNREACHABLE when nothing answers', async () => {
    assert.equal(await checkHealth(address, 'stormhook.nothing.v1.NothingService'), 'UNKNOWN');
    const client = createClient(grpcHealthV1.HealthService, address);
    try {
      await assert.rejects(
        client.check({ service: 'stormhook.nothing.v1.NothingService' }),
        (e: unknown) => e instanceof GrpcError && e.code === GrpcStatus.NOT_FOUND,
      );
    } finally {
      client.close();
    }
    await server.shutdown();
    assert.equal(await checkHealth(address, '', { timeoutMs: 300 }), 'UNREACHABLE');
  });

  it('lists every registered service', async () => {
    const client = createClient(grpcHealthV1.HealthService, address);
    try {
      server.health.setStatus(PROBE, 'NOT_SERVING');
      assert.deepEqual(await client.list({}), { statuses: { '': { status: 'SERVING' }, [PROBE]: { status: 'NOT_SERVING' } } });
    } finally {
      client.close();
    }
  });

  it('streams changes to Watch, says SERVICE_UNKNOWN for unknown services, and ends watches at shutdown', async () => {
    const client = createClient(grpcHealthV1.HealthService, address);
    try {
      const probe = collect(client.watch({ service: PROBE }));
      const later = collect(client.watch({ service: 'stormhook.later.v1.LaterService' }));
      await until(() => probe.items.length === 1 && later.items.length === 1, 'the first statuses');
      assert.deepEqual(probe.items, [{ status: 'SERVING' }]);
      assert.deepEqual(later.items, [{ status: 'SERVICE_UNKNOWN' }]);

      server.health.setStatus(PROBE, 'NOT_SERVING');
      await until(() => probe.items.length === 2, 'the first change');
      server.health.setStatus(PROBE, 'SERVING');
      await until(() => probe.items.length === 3, 'the second change');
      assert.deepEqual(
        probe.items.map((item) => item.status),
        ['SERVING', 'NOT_SERVING', 'SERVING'],
      );

      const started = Date.now();
      await server.shutdown();
      assert.ok(Date.now() - started < 900, 'watches must not hold the graceful shutdown until its timeout');
      assert.equal(await probe.done, undefined, 'the watch ended cleanly');
      assert.equal(probe.items.at(-1)?.status, 'NOT_SERVING');
    } finally {
      client.close();
    }
  });

  it('stops a watch when the client cancels it', async () => {
    const client = createClient(grpcHealthV1.HealthService, address);
    try {
      const controller = new AbortController();
      const watch = collect(client.watch({ service: '' }, { signal: controller.signal }));
      await until(() => watch.items.length === 1, 'the first status');
      controller.abort();
      const error = await watch.done;
      assert.ok(error instanceof GrpcError && error.code === GrpcStatus.CANCELLED, String(error));
      // The server-side watch is gone too, so a graceful shutdown is immediate.
      const started = Date.now();
      await server.shutdown();
      assert.ok(Date.now() - started < 900);
    } finally {
      client.close();
    }
  });

  it('refuses to add services after listen()', async () => {
    assert.throws(() => server.add(ProbeService, handlers), /before listen/);
    const idle = createGrpcServer({ logger: memoryLogger().logger, serviceName: 'idle', internalTokens: 'unauthenticated' });
    await idle.shutdown(); // never listened: must not hang
  });
});
