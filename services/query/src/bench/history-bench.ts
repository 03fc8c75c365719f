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
import { queryV1, weatherV1 } from '@stormhook/proto';
import { machineDescription, reportBench, testInfra, uniqueName } from '@stormhook/testing';
import { DAY_MS, dayOf } from '../history/domain/buckets.js';
import { storedRecord, type StoredRecord } from '../history/domain/record.js';
import { lightningRecord } from '../history/persistence/describe-lightning.js';
import { HistoryStore } from '../history/persistence/history-store.js';
import { historyHandlers } from '../history/transport/history-handlers.js';
import { random } from './synthetic.js';

const { values } = parseArgs({ options: { strikes: { type: 'string' }, locations: { type: 'string' } } });
const STRIKES = Number(values.strikes ?? 10_000_000);
const LOCATIONS = Number(values.locations ?? 8);
const SEED = 24;
const KM_PER_DEG = 111.2;

interface System {
  id: string;
  birth: number;
  lifeMs: number;
  lng: number;
  lat: number;
  /** km/h east and north. */
  vx: number;
  vy: number;
  strikes: number;
  cgFraction: number;
  spreadKm: number;
}

function normal(rnd: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
}

function at(s: System, t: number): { lng: number; lat: number } {
  const h = (t - s.birth) / 3_600_000;
  const lat = s.lat + (s.vy * h) / KM_PER_DEG;
  return { lng: s.lng + (s.vx * h) / (KM_PER_DEG * Math.cos((lat * Math.PI) / 180)), lat };
}

const round5 = (v: number) => Math.round(v * 1e5) / 1e5;

/** The storm systems of a day, sharing `strikes` strikes. */
function systemsOf(day: number, strikes: number, rnd: () => number): System[] {
  const count = 8 + Math.floor(rnd() * 20);
  const weights = Array.from({ length: count }, () => Math.exp(normal(rnd)));
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w, k) => {
    const speed = 20 + rnd() * 40;
    const dir = ((20 + rnd() * 90) * Math.PI) / 180; // towards NNE to ESE
    return {
      id: `c${day % 1000}x${k}`,
      // Afternoon convection: births centred on 12 UTC (15 local).
      birth: day * DAY_MS + Math.min(22, Math.max(0, 12 + 3.5 * normal(rnd))) * 3_600_000,
      lifeMs: (2 + rnd() * 5) * 3_600_000,
      lng: 27 + rnd() * 16,
      lat: 36.8 + rnd() * 4.5,
      vx: speed * Math.sin(dir),
      vy: speed * Math.cos(dir),
      strikes: Math.round((strikes * w) / total),
      cgFraction: 0.15 + rnd() * 0.3,
      spreadKm: 4 + rnd() * 8,
    };
  });
}

/** A strike as ingest publishes it (validate-lightning.ts, ingest-record.ts: every revision field set). */
function strikeValue(s: System, t: number, n: number, rnd: () => number): { value: Uint8Array; ingested: number; lng: number; lat: number } {
  const c = at(s, t);
  const lat = round5(c.lat + (normal(rnd) * s.spreadKm) / KM_PER_DEG);
  const lng = round5(c.lng + (normal(rnd) * s.spreadKm) / (KM_PER_DEG * Math.cos((lat * Math.PI) / 180)));
  const cg = rnd() < s.cgFraction;
  const positive = cg ? rnd() < 0.1 : rnd() < 0.5;
  const kA = Math.exp(Math.log(cg ? (positive ? 30 : 18) : 6) + 0.6 * normal(rnd));
  const ingested = t + 400 + Math.floor(rnd() * 2_500);
  const sourceEventId = `sim${SEED}-${s.id}-f${Math.floor(t / 10_000)}-${n}`;
  const value = weatherV1.LightningEvent.encode({
    eventId: `ltg_${sourceEventId}`,
    sourceEventId,
    revision: { revision: 1, sourceVersion: 0, sourceUpdatedEpochMs: 0, ingestedEpochMs: ingested },
    areaKey: 'sxk',
    timeEpochMs: t,
    type: cg ? 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND' : 'LIGHTNING_TYPE_FLASH_IN_CLOUD',
    location: { lng, lat },
    peakCurrentAmperes: Math.round(Math.min(kA, 450) * 1000) * (positive ? 1 : -1),
    ...(cg ? {} : { inCloudHeightM: Math.round(Math.min(16_000, Math.max(2_000, 8_000 + 2_000 * normal(rnd)))) }),
    multiplicity: cg && !positive ? 1 + (Math.floor(-Math.log(1 - rnd()) / 0.43) % 14) : 1,
  } as weatherV1.LightningEvent);
  return { value, ingested, lng, lat };
}

function ring(c: { lng: number; lat: number }, km: number, points = 16) {
  const out = [];
  for (let i = 0; i <= points; i++) {
    const a = (2 * Math.PI * (i % points)) / points;
    out.push({
      lng: round5(c.lng + (km * Math.sin(a)) / (KM_PER_DEG * Math.cos((c.lat * Math.PI) / 180))),
      lat: round5(c.lat + (km * Math.cos(a)) / KM_PER_DEG),
    });
  }
  return { points: out };
}

/** A thunderstorm cell and a precipitation area of a system every 5 minutes of its life. */
function polygons(s: System, from: number, to: number): StoredRecord[] {
  const out: StoredRecord[] = [];
  for (let t = Math.ceil(s.birth / 300_000) * 300_000; t < s.birth + s.lifeMs; t += 300_000) {
    if (t < from || t >= to) continue;
    const c = at(s, t);
    const ingested = t + 30_000;
    const tag = `${s.id}-${t / 300_000}`;
    const storm = weatherV1.ThunderstormEvent.create({
      eventId: `tst_${tag}`,
      sourceEventId: tag,
      revision: { revision: 1, ingestedEpochMs: ingested },
      areaKey: 'sxk',
      startEpochMs: s.birth,
      endEpochMs: t + 600_000,
      severity: 'THUNDERSTORM_SEVERITY_MEDIUM',
      cell: { areaKm2: 80, centroid: c, polygon: { exterior: ring(c, 5), holes: [] } },
      threatPolygon: { exterior: ring(at(s, t + 1_800_000), 12), holes: [] },
    });
    out.push(storedRecord('THUNDERSTORM', storm, weatherV1.ThunderstormEvent.encode(storm), ingested));
    const rain = weatherV1.PrecipitationEvent.create({
      eventId: `prc_${tag}`,
      sourceEventId: `radar-${tag}`,
      revision: { revision: 1, ingestedEpochMs: ingested },
      areaKey: 'sxk',
      radarTimestampEpochMs: t,
      intensity: 'PRECIPITATION_INTENSITY_HEAVY',
      geometry: { polygons: [{ exterior: ring(c, s.spreadKm * 1.5, 48), holes: [] }] },
      centroid: c,
    });
    out.push(storedRecord('PRECIPITATION', rain, weatherV1.PrecipitationEvent.encode(rain), ingested));
  }
  return out;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function boxAround(p: { lng: number; lat: number }, km: number) {
  const dLat = km / KM_PER_DEG;
  const dLng = km / (KM_PER_DEG * Math.cos((p.lat * Math.PI) / 180));
  return { minLng: p.lng - dLng, minLat: p.lat - dLat, maxLng: p.lng + dLng, maxLat: p.lat + dLat };
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
    const rnd = random(SEED);
    const store = new HistoryStore(mongo.db, options);
    await store.load();
    // Storm season: a few quiet days, most busy, some very busy.
    const days: number[] = [];
    for (let d = dayOf(from); d <= dayOf(to); d++) days.push(d);
    const weights = days.map(() => (rnd() < 0.15 ? 0.05 : 0.4 + rnd() * 1.6));
    const weightSum = weights.reduce((a, b) => a + b, 0);
    const tracks: Array<{ lng: number; lat: number }> = [];
    let strikes = 0;
    let polygonsStored = 0;
    let synthMs = 0;
    let storeMs = 0;
    const started = performance.now();
    // A system born late runs into the next day: its records there wait for that day's write, so
    // each bulk write holds one whole UTC day of ingest time (one chunk per day and cell).
    let carried: StoredRecord[] = [];
    for (const [i, day] of days.entries()) {
      const t0 = performance.now();
      // About 4 % of the strikes drawn fall outside the 30 days (systems of the first and last day): draw more.
      const wanted = Math.round((STRIKES * 1.06 * weights[i]!) / weightSum);
      const records: StoredRecord[] = carried;
      for (const s of systemsOf(day, wanted, rnd)) {
        const perTick = new Map<number, number>();
        for (let k = 0; k < s.strikes; k++) {
          // Flash rate rises and falls over the system's life (triangular).
          const t = Math.floor(s.birth + ((rnd() + rnd()) / 2) * s.lifeMs);
          if (t < from || t >= to) continue;
          const tick = Math.floor(t / 10_000);
          const n = perTick.get(tick) ?? 0;
          perTick.set(tick, n + 1);
          const strike = strikeValue(s, t, n, rnd);
          records.push(lightningRecord(strike.value, strike.ingested));
          if (k % 20_000 === 7) tracks.push({ lng: strike.lng, lat: strike.lat });
        }
        for (const r of polygons(s, from, to)) records.push(r);
      }
      const own = records.filter((r) => dayOf(r.ingestedMs) <= day);
      carried = records.filter((r) => dayOf(r.ingestedMs) > day);
      const t1 = performance.now();
      await store.bulkAppend(own);
      storeMs += performance.now() - t1;
      synthMs += t1 - t0;
      for (const r of own) {
        if (r.kind === 'LIGHTNING') strikes++;
        else polygonsStored++;
      }
    }
    if (carried.length > 0) {
      const t1 = performance.now();
      await store.bulkAppend(carried);
      storeMs += performance.now() - t1;
      for (const r of carried) {
        if (r.kind === 'LIGHTNING') strikes++;
        else polygonsStored++;
      }
    }
    const seedS = (performance.now() - started) / 1000;
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
