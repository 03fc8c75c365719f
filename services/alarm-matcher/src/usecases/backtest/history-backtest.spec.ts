import assert from 'node:assert/strict';
import { square, squareRing } from '@stormhook/geometry/testing';
import { weatherV1 } from '@stormhook/proto';
import type { ForecastRegistration, Registration } from '../../domain/registration.js';
import { geometryRegistration, pointRegistration } from '../../test-support/fixtures.js';
import { replayLive, type LiveSettings, type Published, type ReplayRecord } from '../../test-support/live-replay.js';
import { MemoryWeatherHistory } from '../../test-support/memory-history.js';
import { PolygonGeo } from '../../test-support/memory-ports.js';
import { forecastEvent, lightningEvent, precipitationEvent } from '../../test-support/weather-events.js';
import type { BacktestOutcome } from './backtest-outcome.js';
import { HistoryBacktest } from './history-backtest.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2026, 6, 10, 12, 0);
const LIVE: LiveSettings = {
  quietMs: 30 * MIN,
  persistMs: MIN,
  graceMs: 10 * MIN,
  precipitationExpiryMs: 30 * MIN,
  maxAgeMs: 2 * HOUR,
  sweepIntervalMs: MIN,
  maxCellDistanceM: 50_000,
};
/** District 1231: a 0.3° square around the point alarms of the scenarios. */
const geo = new PolygonGeo(new Map([['DISTRICT:1231', square(32.7, 39.8, 0.3)]]));

function backtest(history: MemoryWeatherHistory): HistoryBacktest {
  return new HistoryBacktest({
    history,
    geo,
    thunderstormGraceMs: LIVE.graceMs,
    precipitationExpiryMs: LIVE.precipitationExpiryMs,
    lightningQuietMs: LIVE.quietMs,
    lightningPersistMs: LIVE.persistMs,
    maxEventAgeMs: LIVE.maxAgeMs,
    sweepIntervalMs: LIVE.sweepIntervalMs,
    forecastCellMaxDistanceM: LIVE.maxCellDistanceM,
    forecastRetentionMs: 12 * HOUR,
  });
}

function historyOf(records: readonly ReplayRecord[]): MemoryWeatherHistory {
  const history = new MemoryWeatherHistory();
  for (const record of records) history.add(record.kind, record.message, record.ingestedMs);
  return history;
}

/** One revision of a storm cell 0.04° square at `lng` (its western edge), moving east at 60 km/h. */
function stormRevision(revision: number, atMs: number, lng: number, severity: weatherV1.ThunderstormSeverity = 'THUNDERSTORM_SEVERITY_MEDIUM'): ReplayRecord {
  const ring = { points: squareRing(lng, 39.9, 0.04).map(([x, y]) => ({ lng: x, lat: y })) };
  const message = weatherV1.ThunderstormEvent.create({
    eventId: 'tst_parity',
    sourceEventId: 'EAF-parity',
    revision: { revision, ingestedEpochMs: atMs, sourceUpdatedEpochMs: atMs },
    areaKey: 'sxk',
    insertedEpochMs: atMs,
    startEpochMs: T0,
    endEpochMs: T0 + 2 * HOUR,
    severity,
    threshold: 3,
    meta: { country: 'TR', state: '', city: '', speedKmh: 60 },
    cell: {
      areaKm2: 15,
      speedKmh: 60,
      directionDeg: 90,
      flashRates: { inCloud: 4, cloudToGround: 1, total: 5 },
      centroid: { lng: lng + 0.02, lat: 39.92 },
      polygon: { exterior: ring, holes: [] },
    },
    threatPolygon: { exterior: ring, holes: [] },
  });
  return { kind: 'THUNDERSTORM', message, ingestedMs: atMs };
}

function strikeAt(atMs: number, lng: number, lat: number, overrides: Parameters<typeof lightningEvent>[2] = {}): ReplayRecord {
  return {
    kind: 'LIGHTNING',
    message: lightningEvent(lng, lat, { timeEpochMs: atMs, revision: { revision: 1, ingestedEpochMs: atMs }, ...overrides }),
    ingestedMs: atMs,
  };
}

/** What the live path published, in the back-test's terms: the body with "simulation": true added. */
function expected(published: readonly Published[]) {
  return published
    .map(({ atMs, notification }) => ({
      atMs,
      id: notification.notificationId,
      type: String(notification.payload['type']),
      stage: notification.eventKind === 'FORECAST' ? 'ALARM' : notification.phase,
      json: `${JSON.stringify(notification.payload).slice(0, -1)},"simulation":true}`,
    }))
    .sort((a, b) => a.atMs - b.atMs || a.id.localeCompare(b.id));
}

function simulated(outcome: BacktestOutcome) {
  const stages = new Map<string, string>();
  return outcome.samples
    .map((sample) => {
      const body = JSON.parse(sample.payloadJson) as { id: string; stage?: string; simulation: boolean };
      assert.equal(body.simulation, true);
      stages.set(body.id, body.stage ?? 'ALARM');
      return { atMs: sample.atMs, id: body.id, type: sample.callbackType, stage: body.stage ?? 'ALARM', json: sample.payloadJson };
    })
    .sort((a, b) => a.atMs - b.atMs || a.id.localeCompare(b.id));
}

async function parity(registration: Registration, records: ReplayRecord[], window: { fromMs: number; toMs: number }) {
  const live = expected(await replayLive(registration, records, window, LIVE, geo));
  const outcome = await backtest(historyOf(records)).run({ registration, ...window });
  assert.ok(live.length <= 20, 'every callback of the scenario fits in the samples');
  assert.equal(outcome.callbacks, live.length);
  assert.deepEqual(simulated(outcome), live);
  const byType = new Map<string, number>();
  for (const n of live) byType.set(`${n.type} ${n.stage}`, (byType.get(`${n.type} ${n.stage}`) ?? 0) + 1);
  assert.deepEqual(new Map(outcome.byType.map((t) => [`${t.callbackType} ${t.stage}`, t.callbacks])), byType);
  return { live, outcome };
}

describe('HistoryBacktest', () => {
  it('sends what the live matchers send over the same records: storms, rain, lightning, all-clears (parity)', async () => {
    const registration = pointRegistration(32.85, 39.92, 10_000, {
      lightning: { approachRadiusM: 20_000 },
      thunderstorm: { approach: { leadMinutes: 30 } },
      precipitation: { intensities: [] },
    });
    const replayed = strikeAt(T0 + 120 * MIN, 32.85, 39.93);
    const records: ReplayRecord[] = [
      stormRevision(1, T0, 32.5),
      strikeAt(T0 + 5 * MIN, 32.85, 40.07),
      strikeAt(T0 + 6 * MIN, 32.86, 40.065),
      stormRevision(2, T0 + 10 * MIN, 32.64),
      stormRevision(3, T0 + 20 * MIN, 32.76),
      strikeAt(T0 + 21 * MIN, 32.85, 39.93),
      strikeAt(T0 + 22 * MIN, 32.84, 39.92),
      stormRevision(4, T0 + 30 * MIN, 32.88, 'THUNDERSTORM_SEVERITY_HIGH'),
      stormRevision(5, T0 + 45 * MIN, 33.05),
      {
        kind: 'PRECIPITATION',
        message: precipitationEvent([32.8, 39.88, 0.1], { radarTimestampEpochMs: T0 + 60 * MIN, revision: { revision: 1, ingestedEpochMs: T0 + 60 * MIN } }),
        ingestedMs: T0 + 60 * MIN,
      },
      replayed,
      // The same strike published again (a replay): the ledger drops its second START.
      { ...replayed, ingestedMs: T0 + 121 * MIN },
    ];
    const { live } = await parity(registration, records, { fromMs: T0, toMs: T0 + 4 * HOUR });
    assert.deepEqual(live.map((n) => `${n.type} ${n.stage}`).sort(), [
      'lightning.all_clear ALL_CLEAR',
      'lightning.all_clear ALL_CLEAR',
      'lightning.approaching APPROACHING',
      'lightning.strike START',
      'lightning.strike START',
      'lightning.strike START',
      'precipitation.end END',
      'precipitation.start START',
      'thunderstorm.approaching APPROACHING',
      'thunderstorm.end END',
      'thunderstorm.start START',
      'thunderstorm.update UPDATE',
    ]);
  });

  it('sends what the live matchers send for a district alarm: its boundary from geo, strikes and rain inside it (parity)', async () => {
    const registration = geometryRegistration(1231, { lightning: { type: 'FLASH_CLOUD_TO_GROUND' }, precipitation: { intensities: ['HEAVY', 'VERY_HEAVY'] } });
    const rain = (revision: number, atMs: number, intensity: weatherV1.PrecipitationIntensity, lng: number): ReplayRecord => ({
      kind: 'PRECIPITATION',
      message: precipitationEvent([lng, 39.85, 0.1], {
        eventId: 'prc_parity',
        sourceEventId: 'p-parity',
        intensity,
        radarTimestampEpochMs: atMs,
        revision: { revision, ingestedEpochMs: atMs },
        motion: { speedKmh: 20, directionDeg: 90 },
      }),
      ingestedMs: atMs,
    });
    const records: ReplayRecord[] = [
      rain(1, T0, 'PRECIPITATION_INTENSITY_HEAVY', 32.75),
      strikeAt(T0 + 2 * MIN, 32.9, 39.95),
      strikeAt(T0 + 3 * MIN, 32.91, 39.96, { type: 'LIGHTNING_TYPE_FLASH_IN_CLOUD', inCloudHeightM: 6_000 }),
      rain(2, T0 + 5 * MIN, 'PRECIPITATION_INTENSITY_VERY_HEAVY', 32.78),
      strikeAt(T0 + 7 * MIN, 33.3, 39.95), // outside the district
      rain(3, T0 + 10 * MIN, 'PRECIPITATION_INTENSITY_MODERATE', 32.8),
      strikeAt(T0 + 50 * MIN, 32.95, 39.9),
    ];
    const { live } = await parity(registration, records, { fromMs: T0, toMs: T0 + 3 * HOUR });
    assert.deepEqual(live.map((n) => `${n.type} ${n.stage}`).sort(), [
      'lightning.all_clear ALL_CLEAR',
      'lightning.all_clear ALL_CLEAR',
      'lightning.strike START',
      'lightning.strike START',
      'precipitation.end END',
      'precipitation.start START',
      'precipitation.update UPDATE',
    ]);
  });

  it('evaluates forecast slots at 04:00 and 16:00 UTC on the latest forecast ingested before each (parity)', async () => {
    const day = Date.UTC(2026, 0, 15);
    const registration: ForecastRegistration = {
      registrationId: '0f0f0f0f-0000-4000-8000-000000000001',
      accountId: 'acc-1',
      recipientId: 'forecast-parity',
      createdAtMs: 1,
      updatedAtMs: 1,
      version: 1,
      warnings: [],
      kind: 'FORECAST',
      boundary: { type: 'POINT', point: { lng: 32.85, lat: 39.92 } },
      filter: { windGustThreshold: 'STRONG_WIND' },
      forecastDays: 2,
      delivery: ['MORNING', 'EVENING'],
      resolved: { cityId: 6, cityName: 'Ankara', districtId: 1231, districtName: 'Çankaya' },
    };
    const gusts = (today: number, tomorrow: number) => Array.from({ length: 49 }, (_, i) => (i <= 24 ? today : tomorrow));
    const records: ReplayRecord[] = [
      {
        kind: 'FORECAST',
        message: forecastEvent('run-1', day - 6 * HOUR, day, [{ cellId: 'c1', lng: 32.9, lat: 39.9, series: { WIND_GUSTS: gusts(70, 30) } }]),
        ingestedMs: day + HOUR,
      },
      {
        kind: 'FORECAST',
        message: forecastEvent('run-2', day + 6 * HOUR, day, [{ cellId: 'c1', lng: 32.9, lat: 39.9, series: { WIND_GUSTS: gusts(40, 80) } }]),
        ingestedMs: day + 10 * HOUR,
      },
      // Ingested at the evening slot itself: too late for it.
      {
        kind: 'FORECAST',
        message: forecastEvent('run-3', day + 12 * HOUR, day, [{ cellId: 'c1', lng: 32.9, lat: 39.9, series: { WIND_GUSTS: gusts(20, 20) } }]),
        ingestedMs: day + 16 * HOUR,
      },
    ];
    const { live } = await parity(registration, records, { fromMs: day, toMs: day + 24 * HOUR });
    assert.deepEqual(
      live.map((n) => [new Date(n.atMs).toISOString(), n.type]),
      [
        ['2026-01-15T04:00:00.000Z', 'forecast.alarm'],
        ['2026-01-15T16:00:00.000Z', 'forecast.alarm'],
      ],
    );
  });

  it('reports a day without lightning data as a gap, and the days it has as covered', async () => {
    const day = Date.UTC(2026, 6, 1);
    const history = new MemoryWeatherHistory();
    history.cover('LIGHTNING', day, day + 24 * HOUR);
    history.cover('LIGHTNING', day + 48 * HOUR, day + 96 * HOUR);
    history.add('LIGHTNING', strikeAt(day + 10 * HOUR, 32.85, 39.92).message, day + 10 * HOUR);
    const registration = pointRegistration(32.85, 39.92, 5_000, { lightning: {} });
    const outcome = await backtest(history).run({ registration, fromMs: day, toMs: day + 72 * HOUR });
    assert.deepEqual(outcome.coverage, [
      {
        dataKind: 'LIGHTNING',
        covered: [
          { fromMs: day, toMs: day + 24 * HOUR },
          { fromMs: day + 48 * HOUR, toMs: day + 72 * HOUR },
        ],
        gaps: [{ fromMs: day + 24 * HOUR, toMs: day + 48 * HOUR }],
      },
    ]);
    assert.deepEqual(
      outcome.byType.map((t) => [t.callbackType, t.callbacks]),
      [
        ['lightning.all_clear', 1],
        ['lightning.strike', 1],
      ],
    );
    assert.deepEqual(
      outcome.days.map((d) => [d.day, d.callbacks]),
      [
        ['2026-07-01', 2],
        ['2026-07-02', 0],
        ['2026-07-03', 0],
        ['2026-07-04', 0],
      ],
      'Istanbul days: the window ends at 03:00 on the 4th there',
    );
  });

  it('sweeps the peak current: alarms never grow as the threshold gets more demanding, and the draft value counts as the run', async () => {
    const history = new MemoryWeatherHistory();
    const currents = [-3_000, 8_000, -12_000, 25_000, -40_000, 60_000, -90_000, 120_000];
    currents.forEach((amperes, i) => {
      const at = T0 + i * 40 * MIN; // each in an episode of its own: an all-clear after each
      history.add('LIGHTNING', strikeAt(at, 32.85, 39.92, { peakCurrentAmperes: amperes }).message, at);
    });
    const registration = pointRegistration(32.85, 39.92, 5_000, { lightning: { peakCurrentA: -20_000 } });
    const outcome = await backtest(history).run({ registration, fromMs: T0, toMs: T0 + 8 * HOUR });
    const sweep = outcome.sweep!;
    assert.equal(sweep.field, 'filter.lightning.peakCurrent');
    assert.equal(sweep.current, '20000');
    const counts = sweep.points.map((p) => p.callbacks);
    assert.deepEqual(
      sweep.points.map((p) => p.value),
      ['0', '5000', '10000', '15000', '20000', '30000', '50000', '75000', '100000'],
    );
    assert.deepEqual(counts, [8, 7, 6, 5, 5, 4, 3, 2, 1]);
    for (let i = 1; i < counts.length; i++) assert.ok(counts[i]! <= counts[i - 1]!, 'monotonic');
    const strikes = outcome.byType.find((t) => t.callbackType === 'lightning.strike')!.callbacks;
    assert.equal(sweep.points.find((p) => p.value === sweep.current)!.callbacks, strikes, 'the draft alarms once per strike');
    assert.ok(outcome.callbacks > strikes, 'the all-clears are callbacks, not alarms');
  });

  it('sweeps the severity threshold monotonically even where callbacks would not be (a storm wavering around it)', async () => {
    const registration = pointRegistration(32.85, 39.92, 10_000, { thunderstorm: { severityThreshold: 'HIGH' } });
    const severities: weatherV1.ThunderstormSeverity[] = [
      'THUNDERSTORM_SEVERITY_HIGH',
      'THUNDERSTORM_SEVERITY_MEDIUM',
      'THUNDERSTORM_SEVERITY_HIGH',
      'THUNDERSTORM_SEVERITY_MEDIUM',
    ];
    const history = new MemoryWeatherHistory();
    severities.forEach((severity, i) => {
      const record = stormRevision(i + 1, T0 + i * 5 * MIN, 32.83, severity);
      history.add(record.kind, record.message, record.ingestedMs);
    });
    const outcome = await backtest(history).run({ registration, fromMs: T0, toMs: T0 + 4 * HOUR });
    // HIGH: START, END (filter not met), START~2, END~2: four callbacks; MEDIUM would send START and its END.
    assert.equal(outcome.callbacks, 4);
    assert.deepEqual(
      outcome.sweep!.points.map((p) => [p.value, p.callbacks]),
      [
        ['LOW', 1],
        ['MEDIUM', 1],
        ['HIGH', 1],
      ],
    );
  });

  it('clips the window to what the history retains, and says so', async () => {
    const history = new MemoryWeatherHistory();
    history.retainedFromMs = T0 + HOUR;
    const registration = pointRegistration(32.85, 39.92, 5_000, { lightning: {} });
    const outcome = await backtest(history).run({ registration, fromMs: T0, toMs: T0 + 4 * HOUR });
    assert.equal(outcome.fromMs, T0 + HOUR);
    assert.match(outcome.warnings[0]!, /clipped/);
  });

  it('reads each kind in the area grown by its reach: the approach ring, a revision of travel, the horizon with a warning stage', async () => {
    const history = new MemoryWeatherHistory();
    const kmEast = (box: { maxLng: number }) => (box.maxLng - 32.85) * 85.3; // km per degree of longitude at 39.9° N
    // Grown by at least the reach, a little more towards the pole (expandBBox never falls short).
    const about = (km: number, expected: number) => km >= expected - 0.5 && km < expected * 1.05;
    await backtest(history).run({
      registration: pointRegistration(32.85, 39.92, 10_000, { lightning: { approachRadiusM: 20_000 }, precipitation: { intensities: [] } }),
      fromMs: T0,
      toMs: T0 + HOUR,
    });
    await backtest(history).run({
      registration: pointRegistration(32.85, 39.92, 10_000, { thunderstorm: { approach: { leadMinutes: 20 } } }),
      fromMs: T0,
      toMs: T0 + HOUR,
    });
    const [lightning, rain, warned] = history.reads;
    assert.deepEqual([lightning!.kinds, rain!.kinds, warned!.kinds], [['LIGHTNING'], ['PRECIPITATION'], ['THUNDERSTORM']]);
    assert.ok(about(kmEast(lightning!.box), 30), 'radius 10 km + ring 20 km');
    assert.ok(about(kmEast(rain!.box), 47.5), 'radius + 15 minutes at 150 km/h');
    assert.ok(about(kmEast(warned!.box), 160), 'radius + 60 minutes at 150 km/h');
  });
});
