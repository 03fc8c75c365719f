/**
 * The delivery benchmark's webhook receivers, in a process of their own (forked by
 * delivery-bench.ts): customers' receivers are never in the notifier's process, and in it they took
 * about a tenth of its CPU and hid what the notifier itself costs per delivery.
 *
 * Protocol over the IPC channel (one request, one answer):
 *   {cmd: 'listen', endpoints, deadIndex}  -> {ports}     deadIndex (or -1) never answers
 *   {cmd: 'count'}                         -> {count}     webhook-ids received so far
 *   {cmd: 'dump'}                          -> {received: [webhook-id, epoch ms][]}
 *   {cmd: 'close'}                         -> {closed: true}, then the process exits
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceiverCommand = { cmd: 'listen'; endpoints: number; deadIndex: number } | { cmd: 'count' } | { cmd: 'dump' } | { cmd: 'close' };
export type ReceiverAnswer = { ports: number[] } | { count: number } | { received: [string, number][] } | { closed: true };

/** Epoch milliseconds with sub-millisecond precision, comparable across processes of one machine. */
export const epochMs = (): number => performance.timeOrigin + performance.now();

const received = new Map<string, number>();
const servers: Server[] = [];

async function listen(endpoints: number, deadIndex: number): Promise<number[]> {
  const ports: number[] = [];
  for (let i = 0; i < endpoints; i++) {
    const dead = i === deadIndex;
    const server = createServer((req, res) => {
      req.resume();
      if (dead) return; // never answers: the attempt times out
      req.on('end', () => {
        received.set(String(req.headers['webhook-id']), epochMs());
        res.end();
      });
    });
    server.keepAliveTimeout = 10_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    ports.push((server.address() as AddressInfo).port);
  }
  return ports;
}

async function answer(command: ReceiverCommand): Promise<ReceiverAnswer> {
  switch (command.cmd) {
    case 'listen':
      return { ports: await listen(command.endpoints, command.deadIndex) };
    case 'count':
      return { count: received.size };
    case 'dump':
      return { received: [...received] };
    case 'close':
      for (const server of servers) {
        server.closeAllConnections();
        server.close();
      }
      return { closed: true };
  }
}

if (process.send) {
  process.on('message', (command: ReceiverCommand) => {
    answer(command).then(
      (reply) => {
        process.send?.(reply);
        if (command.cmd === 'close') process.disconnect();
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
