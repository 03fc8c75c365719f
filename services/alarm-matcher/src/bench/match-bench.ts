/**
 * Matching benchmark (not a test).
 *
 * 1. In-memory lightning matching on one core: the registration index with 10,000 and 100,000
 *    registrations spread over Turkey (every one with a lightning filter), strikes on land.
 * 2. Latency from a weather event published on weather.lightning.v1 to its AlarmTriggered read from
 *    alarm.triggered.v1, through a running matcher on the real broker and database (the index also
 *    holding 100,000 registrations), one strike at a time; then a burst, end to end.
 *
 *   node --expose-gc services/alarm-matcher/dist/bench/match-bench.js
 *
 * Part 2 needs KAFKA_BROKERS and MONGO_URL (`npm run bench` sets them) and is skipped without them.
 */
import { TopicNames } from '@stormhook/kafka';
import { reportBench } from '@stormhook/testing';
import { Grid } from '../geometry/grid.js';
import { RegistrationIndex } from '../matching/registration-index.js';
import { ACCOUNT_A, FULL_WEBHOOK, principal, startHarness } from '../test-support/harness.js';
import { lightningEvent, publishWeather } from '../test-support/weather-events.js';
import { benchRegistrations, benchStrikes, loadAreas, type BenchArea } from './bench-world.js';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function inMemory(count: number, districts: BenchArea[], provinces: BenchArea[], grid: Grid, source: string): RegistrationIndex {
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const registrations = benchRegistrations(count, districts, provinces, 42);
  const buildStart = performance.now();
  const index = new RegistrationIndex(grid);
  for (const { registration, area } of registrations) index.upsert(registration, area);
  const buildMs = performance.now() - buildStart;
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed - heapBefore;

  const strikes = benchStrikes(200_000, provinces, 7);
  // Warm up the JIT, then run for about three seconds.
  for (let i = 0; i < 50_000; i++) index.matchLightning(strikes[i % strikes.length]!);
  let events = 0;
  let matches = 0;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  while (performance.now() - start < 3_000) {
    for (let i = 0; i < strikes.length; i++) matches += index.matchLightning(strikes[i]!).length;
    events += strikes.length;
  }
  const cpu = process.cpuUsage(cpuStart);
  // Per core: events per second of CPU time this process got (the machine is shared; wall time would
  // count the time other processes had the core).
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const wallSeconds = (performance.now() - start) / 1000;
  const perSecond = events / cpuSeconds;
  const note = `per CPU second (${Math.round(events / wallSeconds).toLocaleString('en')}/s by wall clock on a shared machine); ${count.toLocaleString('en')} registrations (70 % point alarms of 1-10 km, 30 % district or province alarms, spread evenly over land; ${source}); ${(matches / events).toFixed(2)} matches per strike; index built in ${buildMs.toFixed(0)} ms, ${mb(heap)} heap`;
  console.log(
    `in-memory lightning matching, ${count.toLocaleString('en')} registrations: ${Math.round(perSecond).toLocaleString('en')} events/s on one core (${note})`,
  );
  reportBench({
    bench: `alarm-matcher lightning matching (${count.toLocaleString('en')} registrations)`,
    metric: 'throughput, one core',
    value: Math.round(perSecond),
    unit: 'events/s',
    note,
  });
  return index;
}

async function onBroker(districts: BenchArea[], provinces: BenchArea[]): Promise<void> {
  if (!process.env['KAFKA_BROKERS'] || !process.env['MONGO_URL']) {
    console.log('latency part skipped: KAFKA_BROKERS and MONGO_URL are not set (npm run bench sets them)');
    return;
  }
  const h = await startHarness({ instances: 1 });
  try {
    const matcher = h.matchers[0]!.matcher;
    // The registration whose alarms are timed, plus 100,000 others held in the index.
    const timed = await h.client.registerAlarm({
      principal: principal(ACCOUNT_A),
      kind: 'REGISTRATION_KIND_POINT',
      registration: {
        recipientId: 'bench',
        pointBoundary: { point: { lng: 32.25, lat: 40.25 }, radiusM: 10_000 },
        webhook: { config: FULL_WEBHOOK },
        weatherFilter: { lightning: {} },
      },
    });
    for (const { registration, area } of benchRegistrations(100_000, districts, provinces, 99)) {
      // Moved out of the way so the timed strikes match only the timed registration.
      if (registration.kind === 'POINT' && Math.abs(registration.circle.point.lng - 32.25) < 0.5 && Math.abs(registration.circle.point.lat - 40.25) < 0.5)
        continue;
      if (registration.kind === 'GEOMETRY' && area.shape.contains(32.25, 40.25)) continue;
      matcher.index.upsert(registration, area);
    }
    const latencies: number[] = [];
    for (let i = 0; i < 200; i++) {
      const sent = Date.now();
      await publishWeather(h.publisher, TopicNames.WeatherLightning, [lightningEvent(32.25, 40.25, { timeEpochMs: sent })]);
      const alarm = (await h.alarms.expect(timed.registrationId, i + 1, 15_000, 0))[i]!;
      latencies.push(alarm.receivedAtMs - sent);
    }
    latencies.sort((a, b) => a - b);
    const note =
      '200 strikes one at a time; publish on weather.lightning.v1 to AlarmTriggered read from alarm.triggered.v1 (matching, ledger claim in the database, publish); index holds 100,000 registrations';
    console.log(
      `event -> alarm.triggered latency: p50 ${percentile(latencies, 0.5)} ms, p95 ${percentile(latencies, 0.95)} ms, p99 ${percentile(latencies, 0.99)} ms`,
    );
    reportBench({ bench: 'alarm-matcher event to alarm.triggered', metric: 'p50 latency', value: percentile(latencies, 0.5), unit: 'ms', note });
    reportBench({ bench: 'alarm-matcher event to alarm.triggered', metric: 'p95 latency', value: percentile(latencies, 0.95), unit: 'ms', note });
    reportBench({ bench: 'alarm-matcher event to alarm.triggered', metric: 'p99 latency', value: percentile(latencies, 0.99), unit: 'ms', note });

    // A burst: strikes queued on one partition, each producing one alarm, measured end to end.
    const burst = 2_000;
    const before = h.alarms.forRegistration(timed.registrationId).length;
    const start = Date.now();
    await publishWeather(
      h.publisher,
      TopicNames.WeatherLightning,
      Array.from({ length: burst }, () => lightningEvent(32.25, 40.25, { timeEpochMs: start })),
    );
    await h.alarms.expect(timed.registrationId, before + burst, 300_000, 0);
    const seconds = (Date.now() - start) / 1000;
    const rate = Math.round(burst / seconds);
    console.log(`end-to-end burst: ${burst} matching strikes on one partition in ${seconds.toFixed(1)} s = ${rate} alarms/s`);
    reportBench({
      bench: 'alarm-matcher end to end (one partition)',
      metric: 'throughput',
      value: rate,
      unit: 'alarms/s',
      note: `${burst} strikes each matching one registration, one key (area) on one partition, one instance; records of one key run one after another, so this is bounded by the round trips of one record (ledger claim, acknowledged publish)`,
    });

    // The same burst keyed by 24 areas (a storm over several areas; the weather topics' 6 partitions):
    // records of different keys run at once and share claim and publish batches.
    const spreadBefore = h.alarms.forRegistration(timed.registrationId).length;
    const spreadStart = Date.now();
    const areas = Array.from({ length: 24 }, (_, i) => `a${i.toString(36)}`);
    await publishWeather(
      h.publisher,
      TopicNames.WeatherLightning,
      Array.from({ length: burst }, (_, i) => lightningEvent(32.25, 40.25, { timeEpochMs: spreadStart, areaKey: areas[i % areas.length]! })),
    );
    await h.alarms.expect(timed.registrationId, spreadBefore + burst, 300_000, 0);
    const spreadSeconds = (Date.now() - spreadStart) / 1000;
    const spreadRate = Math.round(burst / spreadSeconds);
    console.log(`end-to-end burst over 24 areas: ${burst} matching strikes in ${spreadSeconds.toFixed(1)} s = ${spreadRate} alarms/s`);
    reportBench({
      bench: 'alarm-matcher end to end (24 areas)',
      metric: 'throughput',
      value: spreadRate,
      unit: 'alarms/s',
      note: `${burst} strikes each matching one registration, keyed by 24 areas over the 6 partitions, one instance; records of different keys in flight at once share ledger claims and publishes`,
    });
  } finally {
    await h.stop();
  }
}

async function main(): Promise<void> {
  const grid = new Grid();
  const { districts, provinces, source } = loadAreas(grid);
  console.log(`areas: ${districts.length} districts, ${provinces.length} provinces (${source})`);
  inMemory(10_000, districts, provinces, grid, source);
  inMemory(100_000, districts, provinces, grid, source);
  await onBroker(districts, provinces);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
