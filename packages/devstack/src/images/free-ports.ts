import { createServer } from 'node:net';

/** Tries to bind host:port; true when it was free (the socket is closed again at once). */
function canBind(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A port the kernel hands out as free on host. */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `count` consecutive free ports (the services take consecutive gRPC ports from a base), searched
 * from kernel-chosen starting points. Free when checked: another process may still take one before
 * it is used, which then fails loudly at the service's start.
 */
export async function freePortBlock(host: string, count: number, attempts = 50): Promise<number> {
  for (let i = 0; i < attempts; i++) {
    const base = await freePort(host);
    if (base + count > 65535) continue;
    let free = true;
    for (let p = base; p < base + count && free; p++) free = await canBind(host, p);
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free ports found on ${host}`);
}
