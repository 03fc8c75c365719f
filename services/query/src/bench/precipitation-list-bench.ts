/**
 * Benchmark (not a test): the precipitation list (interface.md 4.2) with one million stored events.
 *
 *   MONGO_URL=mongodb://127.0.0.1:27017 node --expose-gc services/query/dist/bench/precipitation-list-bench.js \
 *     [--events 1000000] [--queries 2000]
 *
 * 1. Writes `events` synthetic index entries spread over 30 days into the real database, as
 *    segments of 20,000 (what the service's journal compaction produces).
 * 2. Rebuilds the in-memory index from the database the way the service does at start, and reports
 *    the time and the memory per event.
 * 3. Runs seeded random list queries (windows of 1 h to 5 days anywhere in the 30 days, half with an
 *    intensity threshold, geographies from unrestricted to a single province, pages 0 to 4 of 100)
 *    in-process and over gRPC (a QueryService server on localhost), and reports p50 and p99.
 * Drops its database afterwards.
 */
import { parseArgs } from 'node:util';
import { createClient, createGrpcServer } from '@stormhook/grpc';
import { createLogger } from '@stormhook/logger';
import { connectMongo } from '@stormhook/mongo';
import { queryV1 } from '@stormhook/proto';
import { machineDescription, reportBench, testInfra, uniqueName } from '@stormhook/testing';
import { buildReadModels } from '../compose.js';
import { ForecastStore } from '../forecast/forecast-store.js';
import { SegmentLog } from '../persistence/segment-log.js';
import { INDEX_ENTRY_CODEC } from '../read-models/entry.js';
import { queryHandlers } from '../transport/grpc-handlers.js';
import type { QueryContext } from '../usecases/context.js';
import { listPrecipitations } from '../usecases/list-precipitations.js';
import { random, syntheticAreas, syntheticEntries } from './synthetic.js';

const { values } = parseArgs({ options: { events: { type: 'string' }, queries: { type: 'string' } } });
const count = Number(values.events ?? 1_000_000);
const queries = Number(values.queries ?? 2000);
const DAY = 86_400_000;
const SPAN = 30 * DAY;
const SEGMENT = 20_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const memory = () => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

function requests(n: number, now: number, seed: number): queryV1.ListPrecipitationsRequest[] {
  const rnd = random(seed);
  const intervals = [3600, 6 * 3600, 86_400, 432_000];
  const intensities: queryV1.ListPrecipitationsRequest['intensityThreshold'][] = [
    'PRECIPITATION_INTENSITY_LIGHT',
    'PRECIPITATION_INTENSITY_MODERATE',
    'PRECIPITATION_INTENSITY_HEAVY',
    'PRECIPITATION_INTENSITY_EXTREME',
  ];
  return Array.from({ length: n }, () => {
    const interval = intervals[Math.floor(rnd() * intervals.length)]!;
    const end = Math.round(now - rnd() * (SPAN - interval * 1000));
    const g = rnd();
    const province = () => ({ countryCode: 'TUR', region: `Province ${1 + Math.floor(rnd() * 81)}` });
    const geography: queryV1.Geography =
      g < 0.25
        ? { unrestricted: true, areas: [] }
        : g < 0.6
          ? {
              unrestricted: false,
              areas: [
                { countryCode: 'TUR', region: '' },
                { countryCode: 'CTR', region: '' },
              ],
            }
          : g < 0.9
            ? { unrestricted: false, areas: [province()] }
            : { unrestricted: false, areas: [province(), province(), province()] };
    return {
      geography,
      endEpochMs: end,
      backwardIntervalS: interval,
      intensityThreshold: rnd() < 0.5 ? 'PRECIPITATION_INTENSITY_UNSPECIFIED' : intensities[Math.floor(rnd() * intensities.length)]!,
      page: { pageNumber: Math.floor(rnd() * 5), pageSize: 100 },
    };
  });
}

async function timeAll(reqs: queryV1.ListPrecipitationsRequest[], run: (r: queryV1.ListPrecipitationsRequest) => Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  for (const r of reqs) {
    const started = performance.now();
    await run(r);
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const logger = createLogger({ service: 'query-bench', level: 'warn' });
  const dbName = uniqueName('query_bench').replace(/-/g, '_');
  const mongo = await connectMongo({
    url: testInfra({ ...process.env, KAFKA_BROKERS: process.env['KAFKA_BROKERS'] ?? 'unused' }).mongoUrl,
    dbName,
    appName: 'query-bench',
  });
  const bench = 'query precipitation list';
  try {
    const now = Date.now();
    console.log(`${machineDescription()}; ${count.toLocaleString('en')} events, ${queries} queries`);
    const entries = syntheticEntries(count, now, SPAN);
    const writer = new SegmentLog(mongo.db, 'precipitation', { codec: INDEX_ENTRY_CODEC, maxEntries: SEGMENT, maxAgeMs: 600_000, logger });
    await writer.load(0, () => undefined);
    let started = performance.now();
    for (let i = 0; i < entries.length; i += SEGMENT) await writer.importSegment(entries.slice(i, i + SEGMENT));
    const writeMs = performance.now() - started;
    console.log(`wrote ${count} entries as ${Math.ceil(count / SEGMENT)} segments in ${Math.round(writeMs)} ms`);
    entries.length = 0;

    const settings = {
      QUERY_JOURNAL_MAX_ENTRIES: SEGMENT,
      QUERY_JOURNAL_MAX_AGE_MS: 600_000,
      QUERY_GEOMETRY_CACHE_VERTICES: 0,
      QUERY_THUNDERSTORM_CACHE_RECORDS: 0,
      QUERY_RETENTION_MS: SPAN + DAY,
    };
    const before = memory();
    const sinks = buildReadModels(mongo.db, settings, logger);
    started = performance.now();
    const loaded = await sinks.precipitations.load(now - settings.QUERY_RETENTION_MS);
    const loadMs = performance.now() - started;
    const bytesPerEvent = (memory() - before) / loaded.entries;
    console.log(`loaded ${loaded.entries} entries from ${loaded.segments} segments in ${Math.round(loadMs)} ms, ${bytesPerEvent.toFixed(0)} bytes per event`);

    const areas = syntheticAreas();
    const ctx: QueryContext = {
      ...sinks,
      forecasts: new ForecastStore(),
      areas: () => areas,
      now: Date.now,
      forecastSettings: { weatherIconUrlBase: 'https://icons.test/', maxCellDistanceM: 50_000 },
    };
    await timeAll(requests(200, now, 1), (r) => listPrecipitations(ctx, r)); // warm-up
    const inProcess = await timeAll(requests(queries, now, 2), (r) => listPrecipitations(ctx, r));
    const worst = await timeAll(
      requests(50, now, 3).map((r) => ({
        ...r,
        backwardIntervalS: 432_000,
        geography: { unrestricted: true, areas: [] },
        intensityThreshold: 'PRECIPITATION_INTENSITY_UNSPECIFIED' as const,
      })),
      (r) => listPrecipitations(ctx, r),
    );

    const server = createGrpcServer({ logger, serviceName: 'query-bench', internalTokens: 'unauthenticated' });
    server.add(queryV1.QueryService, queryHandlers(ctx));
    const port = await server.listen('127.0.0.1:0');
    const client = createClient(queryV1.QueryService, `127.0.0.1:${port}`, { deadlineMs: 30_000, trace: false });
    let total = 0;
    await timeAll(requests(100, now, 4), async (r) => (total += (await client.listPrecipitations(r)).page?.totalRecords ?? 0));
    const overGrpc = await timeAll(requests(queries, now, 5), (r) => client.listPrecipitations(r));
    client.close();
    await server.shutdown();

    const note = `${loaded.entries.toLocaleString('en')} events over 30 days; windows 1 h to 5 days, random thresholds, geographies and pages of 100`;
    console.log(
      `in-process p50 ${percentile(inProcess, 50).toFixed(2)} ms, p99 ${percentile(inProcess, 99).toFixed(2)} ms; over gRPC p50 ${percentile(overGrpc, 50).toFixed(2)} ms, p99 ${percentile(overGrpc, 99).toFixed(2)} ms`,
    );
    reportBench({ bench, metric: 'p50 latency over gRPC', value: percentile(overGrpc, 50), unit: 'ms', note });
    reportBench({ bench, metric: 'p99 latency over gRPC', value: percentile(overGrpc, 99), unit: 'ms', note });
    reportBench({ bench, metric: 'p50 latency in-process', value: percentile(inProcess, 50), unit: 'ms', note });
    reportBench({ bench, metric: 'p99 latency in-process', value: percentile(inProcess, 99), unit: 'ms', note });
    reportBench({
      bench,
      metric: 'p50 latency, 5-day window, unrestricted',
      value: percentile(worst, 50),
      unit: 'ms',
      note: 'every event of 5 days counted for the exact total',
    });
    reportBench({
      bench,
      metric: 'index rebuild at start',
      value: loadMs / 1000,
      unit: 's',
      note: `${loaded.entries.toLocaleString('en')} events from ${loaded.segments} segments in FerretDB`,
    });
    reportBench({ bench, metric: 'memory per event', value: bytesPerEvent, unit: 'bytes', note: 'heap and array buffers of the index, after GC' });
  } finally {
    await mongo.db.dropDatabase().catch(() => undefined);
    await mongo.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
