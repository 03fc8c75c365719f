/**
 * The gateway benchmark (not a test): what a paying customer gets. Requests per second, p50 and p99
 * of POST /v1/precipitations/page (an empty page) and POST /v1/forecasts/current (one seeded
 * forecast) through the whole path (express, validation, authentication, the access decision, the
 * quota meter, the query service over gRPC), at 1, 10 and 64 connections, for:
 *
 * - a customer on PREMIUM_MONTHLY (the plan's own limits, metered) calling with a fresh API key,
 * - a customer on PREMIUM_MONTHLY calling with a JWT access token,
 * - the ADMIN (not metered) as a second row,
 *
 * each beside a bare express route answering the same JSON page on the same machine in the same
 * run at the same concurrency: the framework's ceiling. The load comes from a separate process.
 *
 *   KAFKA_BROKERS=... MONGO_URL=... node test/dist/bench/gateway-bench.js [seconds per run=4] [connections=1,10,64] [only=<regex of run names>]
 *
 * The services run as `npm start` runs them, each in its own process (as each is its own pod in
 * production); the bare route runs in a process of its own too. BENCH_GATEWAY_STACK=in-process runs
 * gateway, identity, geo and query in this process instead, on one event loop.
 *
 * Beside req/s it reports the CPU time the services spent per request (all their processes, from
 * /proc): on a shared machine, where throughput swings with the neighbours' load, that figure moves
 * only with our own costs. With BENCH_CPU_PROFILE=<file.cpuprofile> (in-process only) this process is
 * profiled (V8's sampling profiler, as `node --cpu-prof`) from the first gateway run on; with one
 * connection count the profile holds the gateway runs only (open it in Chrome DevTools or speedscope).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { machineDescription, reportBench } from '@stormhook/testing';
import { PLACES } from '../weather/fixtures.js';
import { inProcessStack, processStack, type BenchTarget } from './gateway-targets.js';
import type { LoadResult, LoadSpec } from './load.js';
import { cpuMicrosOf } from './proc-cpu.js';

const loadCli = fileURLToPath(new URL('./load-cli.js', import.meta.url));
const bareCli = fileURLToPath(new URL('./bare-cli.js', import.meta.url));
const WARMUP_MS = 1_000;

function load(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [loadCli, JSON.stringify(spec)], { maxBuffer: 1 << 20 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as LoadResult),
    );
  });
}

/** The bare express route in its own process; resolves with the process and its URL. */
async function startBare(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bareCli], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the bare route exited (${code})`)));
  });
  return { child, url: `http://127.0.0.1:${port.trim()}/bare` };
}

interface Caller {
  name: string;
  headers: Record<string, string>;
  metered: boolean;
}

/** Users with an account on PREMIUM_MONTHLY (the plan's defaults: every data service, 100,000 calls a month each). */
async function callers(target: BenchTarget): Promise<Caller[]> {
  const { session } = target;
  const json = { 'content-type': 'application/json' };
  // Two customers, so each one's monthly quota covers its own runs.
  const keyOwner = await session.user('API_USER', 'PREMIUM_MONTHLY');
  const created = await session.call('POST', '/v1/api-keys/create', { token: keyOwner.token, body: { name: 'bench' } });
  if (created.status !== 201) throw new Error(`cannot create an API key: ${created.status} ${JSON.stringify(created.body)}`);
  const jwtCustomer = await session.user('API_USER', 'PREMIUM_MONTHLY');
  return [
    { name: 'customer, API key', headers: { ...json, 'x-api-key': String(created.body['apiKey']) }, metered: true },
    { name: 'customer, JWT', headers: { ...json, authorization: `Bearer ${jwtCustomer.token}` }, metered: true },
    { name: 'ADMIN (not metered)', headers: { ...json, authorization: `Bearer ${await session.adminToken()}` }, metered: false },
  ];
}

const fmt = (n: number) => Math.round(n).toLocaleString('en');

/** CPU microseconds per second `cpu` counts with no request at all (Kafka consumers, timers). */
async function background(cpu: () => number, ms: number): Promise<number> {
  const before = cpu();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return ((cpu() - before) * 1000) / ms;
}

/** Runs `work` and returns its result with the CPU microseconds `cpu` counted meanwhile, background taken out. */
async function withCpu<T>(cpu: () => number, backgroundPerSecond: number, work: () => Promise<T>): Promise<[T, number]> {
  const before = cpu();
  const started = performance.now();
  const result = await work();
  const idle = (backgroundPerSecond * (performance.now() - started)) / 1000;
  return [result, Math.max(0, cpu() - before - idle)];
}

/** A CPU profile of this process over the runs it is told about (the inspector's sampling profiler). */
async function profiler(file: string | undefined) {
  if (!file) return { start: async () => undefined, stop: async () => undefined };
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  return {
    start: () => session.post('Profiler.start'),
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 4);
  const connections = (process.argv[3] ?? '1,10,64').split(',').map(Number);
  const only = process.argv[4] ? new RegExp(process.argv[4]) : undefined;
  const inProcess = process.env['BENCH_GATEWAY_STACK'] === 'in-process';
  if (process.env['BENCH_CPU_PROFILE'] && !inProcess) throw new Error('BENCH_CPU_PROFILE needs BENCH_GATEWAY_STACK=in-process (the services in this process)');
  const profile = await profiler(process.env['BENCH_CPU_PROFILE']);
  let profiling = false;
  const target = inProcess ? await inProcessStack() : await processStack();
  const bench = `gateway under load (${target.label})`;
  const now = Date.now();
  const pageBody = JSON.stringify({ backwardInterval: 3600, endTimeEpoch: now, pageNumber: 0, pageSize: 20 });
  const bare = await startBare();
  const bareCpu = () => cpuMicrosOf([bare.child.pid!]);
  try {
    await target.seedForecast(now);
    const endpoints = [
      { name: 'POST /v1/precipitations/page', path: '/v1/precipitations/page', body: pageBody },
      {
        name: 'POST /v1/forecasts/current',
        path: '/v1/forecasts/current',
        body: JSON.stringify({ location: PLACES.istanbul, metrics: ['TEMPERATURE', 'HUMIDITY', 'PRECIPITATION'], forecastDays: 2 }),
      },
    ];
    const baseUrl = target.session.baseUrl;
    const who = await callers(target);
    // Every path must answer 200 before it is measured (a benchmark of error answers measures
    // nothing), and the customers' answers must carry the quota headers: the metered path it is.
    for (const endpoint of endpoints) {
      for (const caller of who) {
        const probe = await fetch(`${baseUrl}${endpoint.path}`, { method: 'POST', headers: caller.headers, body: endpoint.body });
        if (probe.status !== 200) throw new Error(`${endpoint.name} as ${caller.name}: ${probe.status} ${await probe.text()}`);
        if ((probe.headers.get('ratelimit-limit') !== null) !== caller.metered)
          throw new Error(`${endpoint.name} as ${caller.name}: metered is not ${caller.metered}`);
        await probe.arrayBuffer();
      }
    }

    const spec = (url: string, headers: Record<string, string>, body: string, concurrency: number): LoadSpec => ({
      url,
      method: 'POST',
      headers,
      body,
      concurrency,
      durationMs: seconds * 1000,
      warmupMs: WARMUP_MS,
    });
    // One untimed second of every path first: the first measured row otherwise paid the JIT
    // compilation of the whole gateway path (compiler threads count in the CPU time), which made the
    // API-key row look dearer than the JWT row measured after it.
    for (const endpoint of endpoints) {
      for (const caller of who) {
        await load({ ...spec(`${baseUrl}${endpoint.path}`, caller.headers, endpoint.body, connections[0] ?? 1), durationMs: 1_000, warmupMs: 0 });
      }
    }
    const idle = await background(() => target.cpuMicros(), 2_000);
    console.log(
      `machine   ${machineDescription()}; ${target.label}; ${seconds} s per run after ${WARMUP_MS} ms warm-up; load from a separate process; background CPU of the services ${fmt(idle / 1000)} ms/s`,
    );
    for (const c of connections) {
      const [ceiling, ceilingCpu] = await withCpu(bareCpu, 0, () => load(spec(bare.url, { 'content-type': 'application/json' }, pageBody, c)));
      // The warm-up's requests are not counted but cost CPU too: a small overestimate, the same for every row.
      const cpuPerRequest = (r: LoadResult, cpuUs: number) => cpuUs / Math.max(1, r.requests);
      const line = (name: string, r: LoadResult, cpuUs: number, ratio?: number) =>
        console.log(
          `${String(c).padStart(3)} conn  ${name.padEnd(58)} ${fmt(r.rps).padStart(7)} req/s  p50 ${r.p50Ms.toFixed(1).padStart(5)} ms  p99 ${r.p99Ms.toFixed(1).padStart(6)} ms` +
            `  cpu ${fmt(cpuPerRequest(r, cpuUs)).padStart(5)} us/req${ratio === undefined ? '' : `  ratio ${ratio.toFixed(3)}`}  ${JSON.stringify(r.statuses)}${r.errors ? ` errors ${r.errors}` : ''}`,
        );
      line('bare express route (ceiling)', ceiling, ceilingCpu);
      reportBench({
        bench,
        metric: `bare express route, ${c} conn`,
        value: Math.round(ceiling.rps),
        unit: 'req/s',
        note: `p50 ${ceiling.p50Ms.toFixed(1)} ms, p99 ${ceiling.p99Ms.toFixed(1)} ms, ${fmt(cpuPerRequest(ceiling, ceilingCpu))} us CPU/req`,
      });
      for (const endpoint of endpoints) {
        for (const caller of who) {
          const name = `${endpoint.name}, ${caller.name}`;
          if (only && !only.test(name)) continue;
          if (!profiling) await profile.start();
          profiling = true;
          const [r, cpuUs] = await withCpu(
            () => target.cpuMicros(),
            idle,
            () => load(spec(`${baseUrl}${endpoint.path}`, caller.headers, endpoint.body, c)),
          );
          const ratio = r.rps / ceiling.rps;
          line(name, r, cpuUs, ratio);
          const odd = Object.keys(r.statuses).some((s) => s !== '200') || r.errors > 0;
          reportBench({
            bench,
            metric: `${name}, ${c} conn`,
            value: Math.round(r.rps),
            unit: 'req/s',
            note:
              `p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms, ${ratio.toFixed(3)} of bare express, ${fmt(cpuPerRequest(r, cpuUs))} us CPU/req` +
              `${odd ? `; statuses ${JSON.stringify(r.statuses)}, errors ${r.errors}` : ''}`,
          });
        }
      }
    }
    await profile.stop();
  } finally {
    bare.child.kill('SIGTERM');
    await target.stop();
  }
}

await main();
