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
 * Beside req/s it reports the CPU time this process (gateway, identity, query: all in-process)
 * spent per request: on a shared machine, where throughput swings with the neighbours' load, that
 * figure moves only with our own costs. With BENCH_CPU_PROFILE=<file.cpuprofile> this process is
 * profiled (V8's sampling profiler, as `node --cpu-prof`) from the first gateway run on; with one
 * connection count the profile holds the gateway runs only (open it in Chrome DevTools or speedscope).
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { machineDescription, reportBench } from '@stormhook/testing';
import { forecastRun, publishForecast, PLACES, HOUR } from '../weather/fixtures.js';
import { eventually, startWeatherStack, type WeatherStack } from '../weather/support.js';
import type { LoadResult, LoadSpec } from './load.js';

const loadCli = fileURLToPath(new URL('./load-cli.js', import.meta.url));
const BENCH = 'gateway under load (in-process services)';
const WARMUP_MS = 1_000;

function load(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [loadCli, JSON.stringify(spec)], { maxBuffer: 1 << 20 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as LoadResult),
    );
  });
}

interface Caller {
  name: string;
  headers: Record<string, string>;
  metered: boolean;
}

/** A user with an account on PREMIUM_MONTHLY (the plan's defaults: every data service, 100,000 calls a month each). */
async function premiumCustomer(stack: WeatherStack): Promise<{ token: string }> {
  const u = await stack.user('API_USER', 'PREMIUM_MONTHLY');
  return { token: u.token };
}

async function callers(stack: WeatherStack): Promise<Caller[]> {
  const json = { 'content-type': 'application/json' };
  // Two customers, so each one's monthly quota covers its own runs.
  const keyOwner = await premiumCustomer(stack);
  const created = await stack.call('POST', '/v1/api-keys/create', { token: keyOwner.token, body: { name: 'bench' } });
  if (created.status !== 201) throw new Error(`cannot create an API key: ${created.status} ${JSON.stringify(created.body)}`);
  const jwtCustomer = await premiumCustomer(stack);
  return [
    { name: 'customer, API key', headers: { ...json, 'x-api-key': String(created.body['apiKey']) }, metered: true },
    { name: 'customer, JWT', headers: { ...json, authorization: `Bearer ${jwtCustomer.token}` }, metered: true },
    { name: 'ADMIN (not metered)', headers: { ...json, authorization: `Bearer ${await stack.adminToken()}` }, metered: false },
  ];
}

const fmt = (n: number) => Math.round(n).toLocaleString('en');

/** CPU microseconds per second this process spends with no request at all (Kafka consumers, timers). */
let backgroundCpuPerSecond = 0;

async function measureBackground(ms: number): Promise<void> {
  const before = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const used = process.cpuUsage(before);
  backgroundCpuPerSecond = ((used.user + used.system) * 1000) / ms;
}

/** How long this process's event loop was held up during a run: stalls (GC, synchronous work) show as p99 latency. */
interface LoopDelay {
  p99Ms: number;
  maxMs: number;
}

/** Runs `work` and returns its result with the CPU microseconds this process spent on it (background taken out) and its event-loop delay. */
async function withCpu<T>(work: () => Promise<T>): Promise<[T, number, LoopDelay]> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const before = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const used = process.cpuUsage(before);
  delay.disable();
  const background = (backgroundCpuPerSecond * (performance.now() - started)) / 1000;
  return [result, Math.max(0, used.user + used.system - background), { p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6 }];
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
  const profile = await profiler(process.env['BENCH_CPU_PROFILE']);
  let profiling = false;
  const stack = await startWeatherStack();
  const now = Date.now();
  const pageBody = JSON.stringify({ backwardInterval: 3600, endTimeEpoch: now, pageNumber: 0, pageSize: 20 });
  const bare = createServer(
    express()
      .use(express.json())
      .post('/bare', (_req, res) => {
        res.json({ precipitations: [], queryTimestamp: Date.now(), totalRecords: 0, pageNumber: 0, pageSize: 20 });
      }),
  );
  try {
    await publishForecast(stack, forecastRun('bench-run', now - HOUR, Math.floor(now / HOUR) * HOUR, [{ id: 'c1', at: PLACES.istanbul, base: 12 }]));
    await eventually(async () => (stack.counters.stored >= 1 ? true : undefined), 'the forecast to be stored', 60_000);
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/bare`;
    const endpoints = [
      { name: 'POST /v1/precipitations/page', path: '/v1/precipitations/page', body: pageBody },
      {
        name: 'POST /v1/forecasts/current',
        path: '/v1/forecasts/current',
        body: JSON.stringify({ location: PLACES.istanbul, metrics: ['TEMPERATURE', 'HUMIDITY', 'PRECIPITATION'], forecastDays: 2 }),
      },
    ];
    const who = await callers(stack);
    // Every path must answer 200 before it is measured (a benchmark of error answers measures
    // nothing), and the customers' answers must carry the quota headers: the metered path it is.
    for (const endpoint of endpoints) {
      for (const caller of who) {
        const probe = await fetch(`${stack.baseUrl}${endpoint.path}`, { method: 'POST', headers: caller.headers, body: endpoint.body });
        if (probe.status !== 200) throw new Error(`${endpoint.name} as ${caller.name}: ${probe.status} ${await probe.text()}`);
        if ((probe.headers.get('ratelimit-limit') !== null) !== caller.metered) throw new Error(`${endpoint.name} as ${caller.name}: metered is not ${caller.metered}`);
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
    // compilation of the whole gateway path (compiler threads count in this process's CPU time),
    // which made the API-key row look dearer than the JWT row measured after it.
    for (const endpoint of endpoints) {
      for (const caller of who) {
        await load({ ...spec(`${stack.baseUrl}${endpoint.path}`, caller.headers, endpoint.body, connections[0] ?? 1), durationMs: 1_000, warmupMs: 0 });
      }
    }
    await measureBackground(2_000);
    console.log(
      `machine   ${machineDescription()}; ${seconds} s per run after ${WARMUP_MS} ms warm-up; load from a separate process; background CPU ${fmt(backgroundCpuPerSecond / 1000)} ms/s`,
    );
    for (const c of connections) {
      const [ceiling, bareCpu, bareLoop] = await withCpu(() => load(spec(bareUrl, { 'content-type': 'application/json' }, pageBody, c)));
      // The warm-up's requests are not counted but cost CPU too: a small overestimate, the same for every row.
      const cpuPerRequest = (r: LoadResult, cpuUs: number) => cpuUs / Math.max(1, r.requests);
      const line = (name: string, r: LoadResult, cpuUs: number, loop: LoopDelay, ratio?: number) =>
        console.log(
          `${String(c).padStart(3)} conn  ${name.padEnd(58)} ${fmt(r.rps).padStart(7)} req/s  p50 ${r.p50Ms.toFixed(1).padStart(5)} ms  p99 ${r.p99Ms.toFixed(1).padStart(6)} ms` +
            `  cpu ${fmt(cpuPerRequest(r, cpuUs)).padStart(5)} us/req${ratio === undefined ? '' : `  ratio ${ratio.toFixed(3)}`}` +
            `  loop delay p99 ${loop.p99Ms.toFixed(1)} ms max ${loop.maxMs.toFixed(1)} ms  ${JSON.stringify(r.statuses)}${r.errors ? ` errors ${r.errors}` : ''}`,
        );
      line('bare express route (ceiling)', ceiling, bareCpu, bareLoop);
      reportBench({
        bench: BENCH,
        metric: `bare express route, ${c} conn`,
        value: Math.round(ceiling.rps),
        unit: 'req/s',
        note: `p50 ${ceiling.p50Ms.toFixed(1)} ms, p99 ${ceiling.p99Ms.toFixed(1)} ms, ${fmt(cpuPerRequest(ceiling, bareCpu))} us CPU/req`,
      });
      for (const endpoint of endpoints) {
        for (const caller of who) {
          const name = `${endpoint.name}, ${caller.name}`;
          if (only && !only.test(name)) continue;
          if (!profiling) await profile.start();
          profiling = true;
          const [r, cpuUs, loop] = await withCpu(() => load(spec(`${stack.baseUrl}${endpoint.path}`, caller.headers, endpoint.body, c)));
          const ratio = r.rps / ceiling.rps;
          line(name, r, cpuUs, loop, ratio);
          const odd = Object.keys(r.statuses).some((s) => s !== '200') || r.errors > 0;
          reportBench({
            bench: BENCH,
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
    bare.close();
    await stack.stop();
  }
}

await main();
