/**
 * The gateway benchmark (not a test): requests per second and p50/p99 latency of
 * POST /v1/precipitations/page and POST /v1/forecasts/current through the whole path (express,
 * validation, JWT check, identity's access decision, the query service over gRPC), beside a bare
 * express route answering a body of the same size on the same machine in the same run: the
 * framework's ceiling. The load comes from a separate process.
 *
 *   KAFKA_BROKERS=... MONGO_URL=... node test/dist/bench/gateway-bench.js [seconds=10] [concurrency=32]
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { machineDescription, reportBench } from '@stormhook/testing';
import { forecastRun, precipitation, publishForecast, publishPrecipitations, PLACES, HOUR } from '../weather/fixtures.js';
import { eventually, startWeatherStack } from '../weather/support.js';
import type { LoadResult, LoadSpec } from './load.js';

const loadCli = fileURLToPath(new URL('./load-cli.js', import.meta.url));

function load(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [loadCli, JSON.stringify(spec)], { maxBuffer: 1 << 20 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as LoadResult),
    );
  });
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 10);
  const concurrency = Number(process.argv[3] ?? 32);
  const stack = await startWeatherStack();
  const bare = createServer(express().use(express.json()).post('/bare', (_req, res) => {
    res.json({ precipitations: [], queryTimestamp: Date.now(), totalRecords: 0, pageNumber: 0, pageSize: 20 });
  }));
  try {
    const now = Date.now();
    const events = Array.from({ length: 500 }, (_, i) => precipitation(`bench-${i}`, PLACES.istanbul, now - (i % 60) * 60_000));
    await publishPrecipitations(stack, events);
    await publishForecast(stack, forecastRun('bench-run', now - HOUR, Math.floor(now / HOUR) * HOUR, [{ id: 'c1', at: PLACES.istanbul, base: 12 }]));
    await eventually(async () => (stack.counters.stored >= 501 ? true : undefined), 'the events to be stored', 60_000);
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const token = await stack.adminToken();
    const json = { 'content-type': 'application/json' };
    const auth = { ...json, authorization: `Bearer ${token}` };
    const common = { concurrency, durationMs: seconds * 1000 };
    const pageBody = JSON.stringify({ backwardInterval: 3600, endTimeEpoch: now, pageNumber: 0, pageSize: 20 });
    const runs: Array<[string, LoadSpec]> = [
      ['bare express route', { ...common, url: `http://127.0.0.1:${(bare.address() as AddressInfo).port}/bare`, method: 'POST', headers: json, body: pageBody }],
      ['POST /v1/precipitations/page', { ...common, url: `${stack.baseUrl}/v1/precipitations/page`, method: 'POST', headers: auth, body: pageBody }],
      [
        'POST /v1/forecasts/current',
        {
          ...common,
          url: `${stack.baseUrl}/v1/forecasts/current`,
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ location: PLACES.istanbul, metrics: ['TEMPERATURE', 'HUMIDITY', 'PRECIPITATION'], forecastDays: 2 }),
        },
      ],
    ];
    const results: Array<[string, LoadResult]> = [];
    for (const [name, spec] of runs) results.push([name, await load(spec)]);
    const ceiling = results[0]![1].rps;
    console.log(`machine   ${machineDescription()}; ${concurrency} connections, ${seconds} s each, load from a separate process`);
    for (const [name, r] of results) {
      console.log(
        `${name.padEnd(30)} ${Math.round(r.rps).toLocaleString('en').padStart(7)} req/s  p50 ${r.p50Ms.toFixed(1)} ms  p99 ${r.p99Ms.toFixed(1)} ms  ratio to bare ${(r.rps / ceiling).toFixed(3)}  statuses ${JSON.stringify(r.statuses)}`,
      );
      const bench = 'gateway under load (admin caller, in-process services)';
      reportBench({ bench, metric: `${name}: throughput`, value: Math.round(r.rps), unit: 'req/s', note: `statuses ${JSON.stringify(r.statuses)}` });
      reportBench({ bench, metric: `${name}: p50 / p99`, value: Number(r.p50Ms.toFixed(1)), unit: `ms / ${r.p99Ms.toFixed(1)} ms` });
      if (name !== 'bare express route') reportBench({ bench, metric: `${name}: ratio to the bare express route`, value: r.rps / ceiling, unit: 'ratio' });
    }
  } finally {
    bare.close();
    await stack.stop();
  }
}

await main();
