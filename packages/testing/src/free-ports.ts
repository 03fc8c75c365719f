import { createServer } from 'node:net';

/**
 * Ports for processes a test or a tool starts itself (a stack, a broker, a service container).
 *
 * The port is free when probed and used a moment later by another process, so it is picked at random
 * BELOW the kernel's ephemeral range (Linux hands out 32768-60999 to client sockets): a port from
 * that range, free when probed, can be taken by any outgoing connection before the service binds it
 * (seen: the notifier's gRPC port, EADDRINUSE, in a full run). A server that binds port 0 itself and
 * keeps the socket needs none of this.
 */
const LOWEST = 20_000;
const EPHEMERAL_START = 32_768;

/** Binds host:port and releases it: true when it was free. */
function canBind(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** The first of `count` consecutive ports free on `host` right now (services take consecutive gRPC ports from a base). */
export async function freePortBlock(count: number, host = '127.0.0.1', attempts = 50): Promise<number> {
  if (!Number.isInteger(count) || count < 1 || count > 1_000) throw new Error(`freePortBlock: count ${count} is not 1-1000`);
  for (let attempt = 0; attempt < attempts; attempt++) {
    const base = LOWEST + Math.floor(Math.random() * (EPHEMERAL_START - LOWEST - count));
    let free = true;
    for (let port = base; port < base + count && free; port++) free = await canBind(host, port);
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free ports found on ${host} in ${attempts} attempts`);
}

/** One port free on `host` right now, below the ephemeral range. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return freePortBlock(1, host);
}
