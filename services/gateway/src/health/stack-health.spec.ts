import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { createGrpcServer, type GrpcServer } from '@stormhook/grpc';
import { silentLogger } from '../test-support/serve.js';
import { stackHealth } from './stack-health.js';

/** A TCP relay in front of a gRPC server that counts the connections made through it. */
async function countingRelay(target: number): Promise<{ address: string; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    connections++;
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  relay.listen(0, '127.0.0.1');
  await once(relay, 'listening');
  return {
    address: `127.0.0.1:${(relay.address() as AddressInfo).port}`,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      relay.close();
      await once(relay, 'close');
    },
  };
}

describe('the stack health probes', () => {
  let server: GrpcServer;
  let relay: Awaited<ReturnType<typeof countingRelay>>;
  before(async () => {
    server = createGrpcServer({ logger: silentLogger(), serviceName: 'identity', internalTokens: 'unauthenticated' });
    relay = await countingRelay(await server.listen('127.0.0.1:0'));
  });
  after(async () => {
    await server.shutdown();
    await relay.close();
  });

  it('asks each service over one channel kept for every check, never a connection per call', async () => {
    const health = stackHealth({ services: { identity: relay.address }, dependencies: { kafka: async () => true } });
    try {
      for (let i = 0; i < 5; i++) {
        assert.deepEqual(await health.check(), { status: 'up', components: { identity: { status: 'up' }, kafka: { status: 'up' } } });
      }
      assert.equal(relay.connections(), 1);
    } finally {
      health.close();
    }
  });
});
