/**
 * Back-test benchmark (not a test): 30 days of synthetic lightning in an in-memory history (storm
 * days of a few hours, strikes clustered under drifting cells; about 100,000 in a district's box), for
 * a point alarm of 10 km and a district alarm. Two figures each, in CPU time:
 * - decode + match: the read box's records decoded by the live decoder and run through the matching
 *   core on the simulated clock (episodes, all-clears);
 * - the whole HistoryBacktest run: the in-memory history read, decode, matching, tally, samples and
 *   the threshold sweep.
 *
 *   node --expose-gc services/alarm-matcher/dist/bench/backtest-bench.js
 *
 * Needs neither Kafka nor the database. BACKTEST_STRIKES sets the number of strikes (default 100,000).
 */
import type { BBox } from '@stormhook/geometry';
import { seeded, square } from '@stormhook/geometry/testing';
import { weatherV1 } from '@stormhook/proto';
import { reportBench } from '@stormhook/testing';
import { decodeHistoryRecord, type WeatherRecord } from '../decoding/history-records.js';
import type { RealtimeRegistration } from '../domain/registration.js';
import { Grid } from '../geometry/grid.js';
import { RegistrationIndex } from '../matching/registration-index.js';
import type { HistoryRecord } from '../ports/weather-history.js';
import { geometryRegistration, pointRegistration } from '../test-support/fixtures.js';
import { MemoryWeatherHistory } from '../test-support/memory-history.js';
import { PolygonGeo } from '../test-support/memory-ports.js';
import { HistoryBacktest } from '../usecases/backtest/history-backtest.js';
import { RealtimeSimulation, type RealtimeSettings } from '../usecases/backtest/realtime-simulation.js';
import { AreaShapes, areaRefOf } from '../usecases/index/area-shapes.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAYS = 30;
const FROM = Date.UTC(2026, 5, 1);
const TO = FROM + DAYS * 24 * HOUR;
/** The district: a 0.4° square (about 34 x 44 km) around the point alarm's centre. */
const DISTRICT: [number, number, number] = [32.65, 39.72, 0.4];
const CENTRE = { lng: 32.85, lat: 39.92 };
const SETTINGS: RealtimeSettings = {
  thunderstormGraceMs: 10 * MIN,
  precipitationExpiryMs: 30 * MIN,
  quietMs: 30 * MIN,
  persistEveryMs: MIN,
  maxAgeMs: 2 * HOUR,
  sweepIntervalMs: 30_000,
};

interface Made {
  record: HistoryRecord;
  lng: number;
  lat: number;
}

/** Strikes under cells crossing the district's box on storm days, one every 10 s per cell. */
function strikes(count: number): Made[] {
  const random = seeded(2611);
  const out: Made[] = [];
  const stormDays = Array.from({ length: DAYS }, (_, d) => d).filter(() => random() < 0.4);
  let n = 0;
  while (out.length < count) {
    const day = stormDays[Math.floor(random() * stormDays.length)]!;
    const start = FROM + day * 24 * HOUR + (10 + random() * 8) * HOUR;
    const lng0 = DISTRICT[0] - 0.05 + random() * 0.2;
    const lat0 = DISTRICT[1] + random() * DISTRICT[2];
    const perCell = 200 + Math.floor(random() * 800);
    for (let i = 0; i < perCell && out.length < count; i++) {
      const t = start + i * 10_000;
      const lng = lng0 + ((t - start) / HOUR) * 0.1 + (random() - 0.5) * 0.05; // a cell drifting east at about 8 km/h
      const lat = lat0 + (random() - 0.5) * 0.05;
      n++;
      const value = weatherV1.LightningEvent.encode(
        weatherV1.LightningEvent.create({
          eventId: `ltg_b${n}`,
          sourceEventId: `b${n}`,
          revision: { revision: 1, ingestedEpochMs: t + 2_000 },
          areaKey: 'sxk',
          timeEpochMs: t,
          type: random() < 0.8 ? 'LIGHTNING_TYPE_FLASH_IN_CLOUD' : 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
          location: { lng, lat },
          peakCurrentAmperes: Math.round((random() < 0.9 ? -1 : 1) * (2_000 + random() * 60_000)),
          multiplicity: 1 + Math.floor(random() * 4),
        }),
      );
      out.push({ record: { kind: 'LIGHTNING', ingestedMs: t + 2_000, value }, lng, lat });
    }
  }
  return out;
}

function cpuMsOf(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function within(made: readonly Made[], box: BBox): Made[] {
  return made.filter((m) => m.lng >= box.minLng && m.lng <= box.maxLng && m.lat >= box.minLat && m.lat <= box.maxLat);
}

async function decodeAndMatch(geo: PolygonGeo, registration: RealtimeRegistration, made: readonly Made[], label: string): Promise<void> {
  const grid = new Grid();
  const shapes = new AreaShapes(geo, grid);
  if (registration.kind === 'GEOMETRY') await shapes.ensure([areaRefOf(registration.area)]);
  const area = shapes.watchedArea(registration)!;
  const index = new RegistrationIndex(grid);
  index.upsert(registration, area);
  const inBox = within(made, area.shape.bbox)
    .map((m) => m.record)
    .sort((a, b) => a.ingestedMs - b.ingestedMs);
  const once = (): number => {
    const decoded: WeatherRecord[] = [];
    for (const record of inBox) {
      const d = decodeHistoryRecord(record);
      if (d.ok) decoded.push(d.value);
    }
    return new RealtimeSimulation(index, SETTINGS).run(decoded, TO).length;
  };
  once(); // warm-up
  globalThis.gc?.();
  let callbacks = 0;
  const cpuMs = cpuMsOf(() => (callbacks = once()));
  const note = `${inBox.length.toLocaleString('en')} strikes of the read box over ${DAYS} days, decoded by the live decoder and matched by the core on the simulated clock (episodes, all-clears): ${callbacks.toLocaleString('en')} callbacks`;
  console.log(`decode + match, ${label}: ${cpuMs.toFixed(0)} ms CPU (${note})`);
  reportBench({ bench: `alarm-matcher back-test decode + match (${label})`, metric: 'CPU time', value: Math.round(cpuMs), unit: 'ms', note });
}

async function wholeRun(backtest: HistoryBacktest, registration: RealtimeRegistration, label: string): Promise<void> {
  const run = () => backtest.run({ registration, fromMs: FROM, toMs: TO });
  await run(); // warm-up
  globalThis.gc?.();
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  const outcome = await run();
  const wallMs = performance.now() - wallStart;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const note = `${DAYS} days, ${outcome.callbacks.toLocaleString('en')} callbacks, a sweep of ${outcome.sweep?.points.length ?? 0} peak currents: in-memory history read, decode, matching, all-clears, tally, samples and sweep; wall ${wallMs.toFixed(0)} ms on a shared machine`;
  console.log(`whole back-test, ${label}: ${cpuMs.toFixed(0)} ms CPU (${note})`);
  reportBench({ bench: `alarm-matcher back-test whole run (${label})`, metric: 'CPU time', value: Math.round(cpuMs), unit: 'ms', note });
}

async function main(): Promise<void> {
  const made = strikes(Number(process.env['BACKTEST_STRIKES'] ?? 100_000));
  const history = new MemoryWeatherHistory();
  history.cover('LIGHTNING', FROM, TO);
  for (const m of made) history.addEncoded(m.record, { minLng: m.lng, minLat: m.lat, maxLng: m.lng, maxLat: m.lat });
  const geo = new PolygonGeo(new Map([['DISTRICT:1231', square(...DISTRICT)]]));
  const backtest = new HistoryBacktest({
    history,
    geo,
    thunderstormGraceMs: SETTINGS.thunderstormGraceMs,
    precipitationExpiryMs: SETTINGS.precipitationExpiryMs,
    lightningQuietMs: SETTINGS.quietMs,
    lightningPersistMs: SETTINGS.persistEveryMs,
    maxEventAgeMs: SETTINGS.maxAgeMs,
    sweepIntervalMs: SETTINGS.sweepIntervalMs,
    forecastCellMaxDistanceM: 50_000,
    forecastRetentionMs: 12 * HOUR,
  });
  const point = pointRegistration(CENTRE.lng, CENTRE.lat, 10_000, { lightning: {} });
  const district = geometryRegistration(1231, { lightning: {} });
  await decodeAndMatch(geo, point, made, 'point alarm of 10 km');
  await decodeAndMatch(geo, district, made, 'district alarm');
  await wholeRun(backtest, point, 'point alarm of 10 km');
  await wholeRun(backtest, district, 'district alarm');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
