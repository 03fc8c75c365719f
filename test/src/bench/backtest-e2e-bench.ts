/**
 * End-to-end back-test benchmark (not a test), issue 24 item 4: how long a customer waits for
 * POST /v1/alarms/{points|geometries}/backtest over 30 days of a storm season with ten million
 * strikes stored. Every hop is the real one: gateway (HTTP, validation, quota line) -> alarm-matcher
 * (BacktestAlarm: draft checks, geo, the matching core) -> query (WeatherHistoryService.ReadHistory,
 * every page, from the history's chunks in FerretDB) and back.
 *
 * Query's history is filled before query starts with the storm season of query's own history
 * benchmark (`@stormhook/query/bench`: synthetic storm systems like ingest's simulator, the records
 * encoded as ingest publishes them). Then it times, beside one bare HTTP round trip to the same
 * gateway (the ceiling: GET /v1/health), back-tests of
 *   - a 10 km point alarm (lightning, cloud-to-ground and in-cloud, any current) at places inside storm tracks;
 *   - district alarms (lightning) on three districts of the shared boundary data.
 * and prints p50 / max, the strikes read and the callbacks found.
 *
 *   KAFKA_BROKERS=... MONGO_URL=... node test/dist/bench/backtest-e2e-bench.js [--strikes 10000000] [--points 8]
 */
import { parseArgs } from 'node:util';
import { connectMongo, serviceDatabase } from '@stormhook/mongo';
import { DAY_MS, HistoryStore, seedStormSeason, type SeededSeason } from '@stormhook/query/bench';
import { createLogger } from '@stormhook/logger';
import { machineDescription, reportBench } from '@stormhook/testing';
import { ANKARA, CANKAYA, ISTANBUL, KADIKOY, KECIOREN, startAlarmStack } from '../alarms/support.js';

const { values } = parseArgs({ options: { strikes: { type: 'string' }, points: { type: 'string' } } });
const STRIKES = Number(values.strikes ?? process.env['BACKTEST_E2E_STRIKES'] ?? 10_000_000);
const POINTS = Number(values.points ?? process.env['BACKTEST_E2E_POINTS'] ?? 8);
const BENCH = 'alarm back-test, end to end';

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

interface Run {
  ms: number;
  callbacks: number;
}

async function main(): Promise<void> {
  const logger = createLogger({ service: 'backtest-e2e-bench', level: 'warn' });
  const now = Date.now();
  // The back-test reaches 30 days back from its own now, a few minutes after this.
  const from = now - 30 * DAY_MS + 3_600_000;
  const to = now - 60_000;
  let season: SeededSeason | undefined;
  console.log(`${machineDescription()}; ${STRIKES.toLocaleString('en')} strikes over 30 days`);
  const stack = await startAlarmStack(
    {},
    {
      query: true,
      gatewayEnv: { GATEWAY_BACKTESTS_PER_ACCOUNT_PER_HOUR: '0' },
      beforeQuery: async (env) => {
        const mongo = await connectMongo({ url: env['MONGO_URL']!, dbName: serviceDatabase('query', env['STORMHOOK_DB_PREFIX']), appName: 'backtest-bench' });
        try {
          const store = new HistoryStore(mongo.db, {
            retentionMs: 30 * DAY_MS,
            journalMaxRecords: 200_000,
            journalMaxAgeMs: 600_000,
            cacheBytes: 64 * 2 ** 20,
            logger,
          });
          await store.load();
          season = await seedStormSeason(store, STRIKES, from, to);
          console.log(
            `seeded ${season.strikes.toLocaleString('en')} strikes and ${season.polygons.toLocaleString('en')} polygons in ${season.seconds.toFixed(0)} s`,
          );
        } finally {
          await mongo.close();
        }
      },
    },
  );
  try {
    const user = await stack.user('API_USER');
    // The ceiling beside it: one bare round trip to the same gateway.
    const bare: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await fetch(`${stack.baseUrl}/v1/health`).then((r) => r.arrayBuffer());
      bare.push(performance.now() - t);
    }
    bare.sort((a, b) => a - b);

    let shown = false;
    const backtest = async (path: string, body: Record<string, unknown>): Promise<Run | string> => {
      const t = performance.now();
      const request = { ...body, from: Date.now() - 30 * DAY_MS + 60_000, to: Date.now() };
      const answer = await stack.call('POST', `/v1/alarms/${path}/backtest`, { token: user.token, body: request });
      const ms = performance.now() - t;
      if (answer.status !== 200) return `${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;
      if (!shown && Number(answer.body['callbacks']) > 0) {
        // One real exchange for the README: the request, and the answer with its busiest days and one sample.
        shown = true;
        const days = (answer.body['days'] as Array<{ callbacks: number }>).filter((d) => d.callbacks > 0).slice(0, 2);
        const samples = (answer.body['samples'] as unknown[]).slice(0, 1);
        console.log(`example: POST /v1/alarms/${path}/backtest ${JSON.stringify(request)}`);
        console.log(`example answer (days with callbacks: first 2 shown; samples: 1 shown): ${JSON.stringify({ ...answer.body, days, samples })}`);
      }
      return { ms, callbacks: Number(answer.body['callbacks']) };
    };
    const lightning = { lightning: {} };
    const tracks = season!.tracks;
    const points: Run[] = [];
    const refused: string[] = [];
    // Places spread over the tracks, deterministic; a place outside the covered land is refused and skipped.
    for (let k = 0; points.length < POINTS && k < POINTS * 4; k++) {
      const place = tracks[(k * 7919) % tracks.length]!;
      const run = await backtest('points', {
        recipientId: `bench-point-${k}`,
        boundary: { point: { lat: place.lat, lng: place.lng }, radius: 10_000 },
        filter: lightning,
      });
      if (typeof run === 'string') refused.push(run);
      else points.push(run);
    }
    const districts: Array<Run & { name: string }> = [];
    for (const [name, cityId, districtId] of [
      ['Çankaya', ANKARA, CANKAYA],
      ['Keçiören', ANKARA, KECIOREN],
      ['Kadıköy', ISTANBUL, KADIKOY],
    ] as const) {
      const run = await backtest('geometries', { recipientId: `bench-${districtId}`, boundary: { cityId, districtId }, filter: lightning });
      if (typeof run === 'string') throw new Error(`the district back-test of ${name} failed: ${run}`);
      districts.push({ ...run, name });
    }

    const pointMs = points.map((r) => r.ms).sort((a, b) => a - b);
    const districtMs = districts.map((r) => r.ms).sort((a, b) => a - b);
    console.log(`bare GET /v1/health: p50 ${percentile(bare, 50).toFixed(1)} ms`);
    console.log(
      `10 km point, 30 days: p50 ${percentile(pointMs, 50).toFixed(0)} ms, max ${pointMs[pointMs.length - 1]!.toFixed(0)} ms over ${points.length} places; callbacks ${points.map((r) => r.callbacks).join(', ')}${refused.length ? `; refused places: ${refused.length} (${refused[0]})` : ''}`,
    );
    console.log(`districts, 30 days: ${districts.map((d) => `${d.name} ${d.ms.toFixed(0)} ms (${d.callbacks} callbacks)`).join(', ')}`);
    const note = `${season!.strikes.toLocaleString('en')} strikes and ${season!.polygons.toLocaleString('en')} storm and rain records stored over 30 days; gateway -> matcher -> query history, every page; bare gateway round trip ${percentile(bare, 50).toFixed(1)} ms`;
    reportBench({
      bench: BENCH,
      metric: '10 km point alarm, 30 days, p50',
      value: percentile(pointMs, 50),
      unit: 'ms',
      note: `${points.length} places in storm tracks, ${Math.min(...points.map((r) => r.callbacks))}-${Math.max(...points.map((r) => r.callbacks))} callbacks; ${note}`,
    });
    reportBench({ bench: BENCH, metric: '10 km point alarm, 30 days, max', value: pointMs[pointMs.length - 1]!, unit: 'ms', note });
    reportBench({
      bench: BENCH,
      metric: 'district alarm, 30 days, max',
      value: districtMs[districtMs.length - 1]!,
      unit: 'ms',
      note: `${districts.map((d) => `${d.name} ${d.callbacks} callbacks`).join(', ')}; ${note}`,
    });
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
