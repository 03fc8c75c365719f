import { createServer } from 'node:net';

/** Binds `port` on 127.0.0.1 and releases it: the port the OS gave, or undefined when it is taken. */
function probe(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : undefined;
      server.close(() => resolve(bound));
    });
  });
}

/** A port the OS considers free right now (bind port 0, read it, release it). */
export async function freePort(): Promise<number> {
  const port = await probe(0);
  if (port === undefined) throw new Error('the OS gave no free port');
  return port;
}

/**
 * The first of `count` consecutive free ports: the stack gives its gRPC services consecutive ports
 * from STORMHOOK_GRPC_BASE_PORT. Picked at random below the kernel's ephemeral range (32768 and up),
 * as the stop spec does: a port from that range, free when probed, can be taken by any client socket
 * before the service binds it (seen: the notifier's gRPC port, EADDRINUSE, in a full run).
 */
export async function freePortRange(count: number, attempts = 50): Promise<number> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * (12_000 - count));
    let all = true;
    for (let offset = 0; offset < count && all; offset++) all = (await probe(base + offset)) !== undefined;
    if (all) return base;
  }
  throw new Error(`no ${count} consecutive free ports found in ${attempts} attempts`);
}
