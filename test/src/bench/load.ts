/**
 * A closed-loop HTTP load generator: `concurrency` workers each send the same request back to back
 * for `durationMs` over keep-alive connections, recording every latency. Run as its own process
 * (load-cli.ts) so it does not share an event loop with the server it measures.
 */
import { Agent, request } from 'node:http';

export interface LoadSpec {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  concurrency: number;
  durationMs: number;
  /** Sent first and not recorded: connections opened, JIT and caches warm. Default 0. */
  warmupMs?: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

function once(spec: LoadSpec, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(spec.url, { method: spec.method, headers: spec.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(spec.body);
  });
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const warmUntil = performance.now() + (spec.warmupMs ?? 0);
  const until = warmUntil + spec.durationMs;
  const worker = async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      try {
        const status = await once(spec, agent);
        if (t0 < warmUntil) continue;
        statuses[status] = (statuses[status] ?? 0) + 1;
        latencies.push(performance.now() - t0);
      } catch {
        if (t0 >= warmUntil) errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency }, worker));
  // Only requests sent after the warm-up count, over the time since it ended.
  const seconds = (performance.now() - warmUntil) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, statuses, rps: latencies.length / seconds, p50Ms: pct(0.5), p99Ms: pct(0.99) };
}
