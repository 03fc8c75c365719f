/**
 * Forecast-slot benchmark (not a test): how long one delivery slot takes with 100,000 forecast
 * alarms, through the real slot runner of a running matcher on the real broker and database: take
 * the slot's registrations and the latest forecast of every grid cell from memory, find each
 * registration's cells, compare against its thresholds, claim one notification per breaching
 * registration in the ledger and publish it on alarm.triggered.v1 (read back from the topic).
 *
 * The forecast: a 0.1 degree grid over Turkey's box (12,480 cells, 3 days each). The alarms: 70 %
 * points over land (nearest cell within 25 km), 30 % districts (every cell inside the district),
 * 1 to 3 forecast days, one to three thresholds each (about one in five breaches somewhere).
 *
 *   KAFKA_BROKERS=... MONGO_URL=... node services/alarm-matcher/dist/bench/forecast-bench.js [--registrations 100000]
 */
import { parseArgs } from 'node:util';
import { seeded } from '@stormhook/geometry/testing';
import { MongoClient } from 'mongodb';
import { databaseName } from '@stormhook/mongo';
import { machineDescription, reportBench } from '@stormhook/testing';
import type { ForecastFilter, ForecastRegistration } from '../domain/registration.js';
import type { CellForecast } from '../forecast/forecast-cells.js';
import { DAY_MS, utcDay } from '../forecast/daily.js';
import { slotOn } from '../forecast/slots.js';
import { Grid } from '../geometry/grid.js';
import { MongoRegistrationRepository } from '../persistence/registration-repository.js';
import { FAKE_DISTRICTS } from '../test-support/fake-geo-server.js';
import { startHarness } from '../test-support/harness.js';
import { loadAreas, pointIn } from './bench-world.js';

const { values } = parseArgs({ options: { registrations: { type: 'string' } } });
const count = Number(values.registrations ?? 100_000);

function forecastGrid(issueMs: number, random: () => number): CellForecast[] {
  const cells: CellForecast[] = [];
  const today = utcDay(issueMs);
  for (let lng = 25.6; lng < 45.0; lng += 0.1) {
    for (let lat = 35.8; lat < 42.2; lat += 0.1) {
      const location: [number, number] = [Number(lng.toFixed(2)), Number(lat.toFixed(2))];
      cells.push({
        cellId: `${location[0]},${location[1]}`,
        location,
        runId: 'bench-run',
        issueMs,
        days: [0, 1, 2].map((d) => ({
          dayMs: today + d * DAY_MS,
          // Skewed like real weather: mostly dry and calm, now and then heavy.
          precipitationMm: Math.round(-Math.log(1 - random()) * 6 * 10) / 10,
          snowfallCm: 0,
          windGustMaxKmh: Math.round(20 + -Math.log(1 - random()) * 15),
          temperatureMaxC: Math.round(15 + random() * 20),
          temperatureMinC: Math.round(-2 + random() * 12),
        })),
      });
    }
  }
  return cells;
}

function filterOf(random: () => number): ForecastFilter {
  const filter: ForecastFilter = {};
  const pick = <T>(options: readonly T[]) => options[Math.floor(random() * options.length)]!;
  filter.precipitationThreshold = pick(['MODERATE', 'HEAVY', 'VERY_HEAVY', 'EXTREME']);
  if (random() < 0.5) filter.windGustThreshold = pick(['GALE', 'STRONG_GALE', 'STORM']);
  if (random() < 0.3) filter.hotTemperatureThreshold = pick(['HOT_SNAP', 'HEATWAVE']);
  return filter;
}

function registrationsFor(total: number, random: () => number, nowMs: number): ForecastRegistration[] {
  const { provinces } = loadAreas(new Grid());
  return Array.from({ length: total }, (_, i): ForecastRegistration => {
    const base = {
      registrationId: `fc-bench-${i}`,
      accountId: `account-${i % 997}`,
      recipientId: `recipient-${i}`,
      createdAtMs: nowMs,
      updatedAtMs: nowMs,
      version: 1,
      warnings: [],
      kind: 'FORECAST' as const,
      filter: filterOf(random),
      forecastDays: 1 + Math.floor(random() * 3),
      delivery: ['MORNING' as const],
    };
    if (random() < 0.7) {
      const [lng, lat] = pointIn(provinces, random);
      return {
        ...base,
        boundary: { type: 'POINT', point: { lng, lat } },
        resolved: { cityId: 6, cityName: 'Ankara', districtId: 1231, districtName: 'Çankaya' },
      };
    }
    const district = FAKE_DISTRICTS[i % FAKE_DISTRICTS.length]!;
    return {
      ...base,
      boundary: { type: 'ADMINISTRATIVE', cityId: district.parent!, districtId: district.id },
      resolved: { cityId: district.parent!, cityName: 'city', districtId: district.id, districtName: district.name },
    };
  });
}

async function main(): Promise<void> {
  if (!process.env['KAFKA_BROKERS'] || !process.env['MONGO_URL']) throw new Error('KAFKA_BROKERS and MONGO_URL must be set (npm run bench sets them)');
  const random = seeded(2025);
  const h = await startHarness({ instances: 1, env: { ALARM_FORECAST_CELL_MAX_DISTANCE_M: '25000' } });
  const mongo = new MongoClient(process.env['MONGO_URL']);
  try {
    const parts = h.matchers[0]!.matcher;
    const now = Date.now();
    const slot = slotOn('MORNING', now);

    let t = performance.now();
    const cells = forecastGrid(slot.timeMs - 6 * 3_600_000, random);
    for (let i = 0; i < cells.length; i += 1_000) await parts.forecasts.save(cells.slice(i, i + 1_000), now);
    const cellsMs = performance.now() - t;
    t = performance.now();
    const repository = new MongoRegistrationRepository(mongo.db(databaseName('alarm_matcher', h.dbPrefix)));
    const registrations = registrationsFor(count, random, now);
    for (let i = 0; i < registrations.length; i += 1_000) await repository.insertMany(registrations.slice(i, i + 1_000));
    const seedMs = performance.now() - t;

    // Seeded behind the running matcher's back: it takes them in as at start (or at its periodic
    // reconciliation), not during the slot, which evaluates from memory.
    t = performance.now();
    await parts.indexer.reconcile();
    const loaded = parts.forecastAlarms.forDelivery('MORNING').length;
    const readRegistrationsMs = performance.now() - t;
    // Stored behind the running matcher's back too: read into memory as at start (afterwards the
    // weather.forecast.v1 broadcast keeps them current).
    t = performance.now();
    const stored = await parts.forecasts.all();
    parts.forecastCells.apply(stored);
    const readCellsMs = performance.now() - t;
    if (loaded !== count || stored.length !== cells.length) throw new Error(`read back ${loaded} registrations and ${stored.length} cells`);

    globalThis.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    t = performance.now();
    const outcome = await parts.slots.run(slot);
    const slotMs = performance.now() - t;
    const heapAfter = process.memoryUsage().heapUsed;
    if (!outcome.evaluated || outcome.registrations !== count) throw new Error(`slot not evaluated as expected: ${JSON.stringify(outcome)}`);
    t = performance.now();
    const deadline = Date.now() + 300_000;
    while (h.alarms.alarms.length < outcome.notifications && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const tailMs = performance.now() - t;
    if (h.alarms.alarms.length < outcome.notifications)
      throw new Error(`${outcome.notifications} notifications claimed, ${h.alarms.alarms.length} on alarm.triggered.v1`);

    const note = `${count.toLocaleString('en')} forecast alarms (70 % points, 30 % districts, 1-3 days), ${cells.length.toLocaleString('en')} grid cells of 0.1 deg, ${outcome.notifications.toLocaleString('en')} notifications (${((outcome.notifications / count) * 100).toFixed(1)} % breaching) claimed and published`;
    console.log('forecast slot benchmark: one delivery slot through the real slot runner (real Kafka, real database)');
    console.log(`machine: ${machineDescription()}`);
    console.log(`setup: ${cells.length} cells stored in ${(cellsMs / 1000).toFixed(1)} s, ${count} registrations inserted in ${(seedMs / 1000).toFixed(1)} s`);
    console.log(
      `loading into memory (at start, not in the slot): the registrations ${(readRegistrationsMs / 1000).toFixed(1)} s, the latest forecast of every cell ${(readCellsMs / 1000).toFixed(1)} s`,
    );
    console.log(
      `slot run: ${(slotMs / 1000).toFixed(1)} s in all (${note}); heap grew ${Math.round((heapAfter - heapBefore) / 1024 / 1024)} MB during the run; last notification on the topic ${Math.round(tailMs)} ms after the run returned`,
    );
    const bench = `forecast slot (${count.toLocaleString('en')} alarms)`;
    reportBench({ bench, metric: 'slot evaluation, end to end', value: Number((slotMs / 1000).toFixed(1)), unit: 's', note });
    reportBench({
      bench,
      metric: 'loading the registrations into memory (at start)',
      value: Number((readRegistrationsMs / 1000).toFixed(1)),
      unit: 's',
      note: 'not part of the slot: the slot evaluates the alarms held in memory',
    });
    reportBench({
      bench,
      metric: 'loading the forecast cells into memory (at start)',
      value: Number((readCellsMs / 1000).toFixed(1)),
      unit: 's',
      note: 'not part of the slot: the slot evaluates the cells held in memory',
    });
  } finally {
    await mongo.close();
    await h.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
