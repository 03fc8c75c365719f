/**
 * Benchmark (not a test): the weather history (WeatherHistoryService.ReadHistory) over a storm
 * season of 30 days with ten million strikes stored.
 *
 *   MONGO_URL=mongodb://127.0.0.1:27017 node --expose-gc services/query/dist/bench/history-bench.js \
 *     [--strikes 10000000] [--locations 8]
 *
 * 1. Synthesizes a storm season across Turkey (storm systems born each day, mostly in the
 *    afternoon, moving north-east at 20-60 km/h for 2-7 hours, strikes scattered about their cores;
 *    quiet days and busy ones; ids, currents, heights and rounding like ingest's simulator), encodes
 *    each strike as ingest publishes it, with a thunderstorm cell and a precipitation area per system
 *    every 5 minutes, and writes it day by day with the store's bulk append.
 * 2. Reports the seed time, the stored bytes per strike (the packed chunks, and what the database
 *    says it holds) and the time to reload the manifest as at a restart.
 * 3. Reads over gRPC, every page, the 30 days of every kind for a 10 km point's box and a district's
 *    box (30 x 30 km) at locations inside storm tracks, and reports p50 and max time and the
 *    records returned.
 * Drops its database afterwards.
 */
import { parseArgs } from 'node:util';
import { createClient, createGrpcServer } from '@stormhook/grpc';
import { createLogger } from '@stormhook/logger';
import { connectMongo } from '@stormhook/mongo';
import { queryV1 } from '@stormhook/proto';
import { machineDescription, reportBench, testInfra, uniqueName } from '@stormhook/testing';
import { DAY_MS } from '../history/domain/buckets.js';
import { HistoryStore } from '../history/persistence/history-store.js';
import { historyHandlers } from '../history/transport/history-handlers.js';
import { boxAround, SEED, seedStormSeason } from './storm-season.js';
import { random } from './synthetic.js';

const { values } = parseArgs({ options: { strikes: { type: 'string' }, locations: { type: 'string' } } });
const STRIKES = Number(values.strikes ?? 10_000_000);
const LOCATIONS = Number(values.locations ?? 8);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const logger = createLogger({ service: 'history-bench', level: 'warn' });
  const dbName = uniqueName('history_bench').replace(/-/g, '_');
  const mongo = await connectMongo({
    url: testInfra({ ...process.env, KAFKA_BROKERS: process.env['KAFKA_BROKERS'] ?? 'unused' }).mongoUrl,
    dbName,
    appName: 'history-bench',
  });
  const bench = 'weather history';
  const options = { retentionMs: 30 * DAY_MS, journalMaxRecords: 200_000, journalMaxAgeMs: 600_000, cacheBytes: 64 * 1024 * 1024, logger };
  try {
    console.log(`${machineDescription()}; ${STRIKES.toLocaleString('en')} strikes over 30 days, ${LOCATIONS} locations`);
    const now = Date.now();
    const from = now - 30 * DAY_MS + 600_000;
    const to = now - 600_000;
    const store = new HistoryStore(mongo.db, options);
    await store.load();
    const { strikes, polygons: polygonsStored, tracks, synthMs, storeMs, seconds: seedS } = await seedStormSeason(store, STRIKES, from, to);
    const stats = store.stats();
    const lightning = stats.kinds.LIGHTNING!;
    const perStrike = lightning.bytes / lightning.records;
    const dbStats = (await mongo.db.command({ dbStats: 1 }).catch(() => ({}))) as { dataSize?: number; storageSize?: number; totalSize?: number };
    const onDisk = dbStats.totalSize ?? dbStats.storageSize ?? dbStats.dataSize;
    // The database's size shared out in proportion to the packed bytes of each kind.
    const packedAll = Object.values(stats.kinds).reduce((n, k) => n + k.bytes, 0);
    const diskPerStrike = onDisk === undefined ? undefined : (onDisk * (lightning.bytes / packedAll)) / lightning.records;
    if (strikes !== lightning.records) console.log(`${strikes - lightning.records} strikes written twice (same id) were kept once`);
    console.log(
      `seeded ${lightning.records.toLocaleString('en')} strikes and ${polygonsStored.toLocaleString('en')} polygons in ${seedS.toFixed(1)} s (synthesis and encoding ${(synthMs / 1000).toFixed(1)} s, store ${(storeMs / 1000).toFixed(1)} s); ${stats.chunks} chunks`,
    );
    console.log(
      `strikes: ${lightning.chunks} chunks, ${(lightning.bytes / 2 ** 20).toFixed(1)} MiB packed, ${perStrike.toFixed(1)} bytes per strike; polygons ${(((stats.kinds.THUNDERSTORM?.bytes ?? 0) + (stats.kinds.PRECIPITATION?.bytes ?? 0)) / 2 ** 20).toFixed(1)} MiB; database ${onDisk !== undefined ? `${(onDisk / 2 ** 20).toFixed(0)} MiB (strikes' share: ${diskPerStrike!.toFixed(1)} bytes per strike)` : 'size not reported'}`,
    );

    let t = performance.now();
    const reloaded = new HistoryStore(mongo.db, options);
    const loaded = await reloaded.load();
    const loadMs = performance.now() - t;
    console.log(`manifest of ${loaded.chunks} chunks reloaded in ${loadMs.toFixed(0)} ms`);

    const server = createGrpcServer({ logger, serviceName: 'history-bench', internalTokens: 'unauthenticated' });
    server.add(queryV1.WeatherHistoryService, historyHandlers(reloaded));
    const port = await server.listen('127.0.0.1:0');
    const client = createClient(queryV1.WeatherHistoryService, `127.0.0.1:${port}`, { deadlineMs: 60_000, trace: false });
    const pick = random(SEED + 1);
    // Each kind of read at places of its own, so neither finds its chunks cached by the other.
    const placesOf = () => Array.from({ length: LOCATIONS }, () => tracks[Math.floor(pick() * tracks.length)]!);
    const results: Record<string, { ms: number[]; records: number[]; pages: number[]; chunks: number[]; mib: number[] }> = {};
    for (const [name, km] of [
      ['point 10 km', 10],
      ['district 30 x 30 km', 15],
    ] as const) {
      const r = (results[name] = { ms: [] as number[], records: [] as number[], pages: [] as number[], chunks: [] as number[], mib: [] as number[] });
      for (const place of placesOf()) {
        const before = reloaded.stats().fetched;
        t = performance.now();
        let token = '';
        let records = 0;
        let pages = 0;
        do {
          const page = await client.readHistory({ fromEpochMs: from, toEpochMs: to, box: boxAround(place, km), kinds: [], pageToken: token, maxPageBytes: 0 });
          records += page.records.length;
          pages++;
          token = page.nextPageToken;
        } while (token !== '');
        r.ms.push(performance.now() - t);
        const fetched = reloaded.stats().fetched;
        r.chunks.push(fetched.chunks - before.chunks);
        r.mib.push((fetched.bytes - before.bytes) / 2 ** 20);
        r.records.push(records);
        r.pages.push(pages);
      }
      r.ms.sort((a, b) => a - b);
      console.log(
        `${name}: every page of 30 days in p50 ${percentile(r.ms, 50).toFixed(0)} ms, max ${r.ms[r.ms.length - 1]!.toFixed(0)} ms; records per read ${Math.min(...r.records)} to ${Math.max(...r.records)} (${r.records.join(', ')}), pages ${Math.max(...r.pages)} at most; chunks fetched ${r.chunks.join(', ')} (${r.mib.map((m) => m.toFixed(1)).join(', ')} MiB)`,
      );
    }
    client.close();
    await server.shutdown();

    const note = `${lightning.records.toLocaleString('en')} strikes and ${polygonsStored.toLocaleString('en')} thunderstorm and precipitation records over 30 days`;
    reportBench({ bench, metric: 'seed (synthesis, encoding, bulk append)', value: seedS, unit: 's', note });
    reportBench({
      bench,
      metric: 'stored bytes per strike (packed chunks)',
      value: perStrike,
      unit: 'bytes',
      note: 'the exact protobuf value: ids, times, location, current, height, multiplicity',
    });
    if (onDisk !== undefined) {
      reportBench({ bench, metric: 'database size (dbStats)', value: onDisk / 2 ** 20, unit: 'MiB', note });
      reportBench({
        bench,
        metric: 'database bytes per strike',
        value: diskPerStrike!,
        unit: 'bytes',
        note: "the database's size (FerretDB on SQLite: binary as base64 in JSON, the manifest, pages) shared out by packed bytes",
      });
    }
    reportBench({ bench, metric: 'manifest reload at start', value: loadMs, unit: 'ms', note: `${loaded.chunks} chunks` });
    for (const [name, r] of Object.entries(results)) {
      const detail = `${LOCATIONS} locations in storm tracks, 30 days, every kind, every page over gRPC; ${Math.min(...r.records)}-${Math.max(...r.records)} records`;
      reportBench({ bench, metric: `ReadHistory ${name} p50`, value: percentile(r.ms, 50), unit: 'ms', note: detail });
      reportBench({ bench, metric: `ReadHistory ${name} max`, value: r.ms[r.ms.length - 1]!, unit: 'ms', note: detail });
    }
  } finally {
    await mongo.db.dropDatabase().catch(() => undefined);
    await mongo.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
