import assert from 'node:assert/strict';
import type { queryV1, weatherV1 } from '@stormhook/proto';
import { ForecastStore } from '../forecast/forecast-store.js';
import type { QueryContext } from './context.js';
import { getForecast } from './get-forecast.js';

const HOUR = 3_600_000;
/** 2026-06-14T21:00Z = midnight of 2026-06-15 in İstanbul (UTC+3). */
const LOCAL_MIDNIGHT = Date.UTC(2026, 5, 14, 21);
const ISTANBUL = { lng: 28.97, lat: 41.01 };

type Series = Partial<Record<weatherV1.ForecastMetric, (hour: number) => number>>;

function run(runId: string, issue: number, cells: Array<{ id: string; lng: number; lat: number; series: Series }>, hours = 72): weatherV1.ForecastEvent {
  return {
    eventId: `fcs_${runId}.0.sxk`,
    sourceEventId: `${runId}#0`,
    revision: { revision: 1, sourceVersion: 0, sourceUpdatedEpochMs: 0, ingestedEpochMs: issue },
    areaKey: 'sxk',
    runId,
    model: 'test-model',
    issueEpochMs: issue,
    runChunkIndex: 0,
    runChunkCount: 1,
    firstHourEpochMs: LOCAL_MIDNIGHT,
    hourCount: hours,
    cells: cells.map((c) => ({
      cellId: c.id,
      location: { lng: c.lng, lat: c.lat },
      elevationM: 40,
      series: Object.entries(c.series).map(([metric, f]) => ({
        metric: metric as weatherV1.ForecastMetric,
        values: Array.from({ length: hours }, (_, h) => f!(h)),
      })),
    })),
  };
}

const series: Series = {
  FORECAST_METRIC_TEMPERATURE: (h) => 10 + (h % 24),
  FORECAST_METRIC_PRECIPITATION: (h) => (h < 24 ? 0.5 : 0),
  FORECAST_METRIC_WEATHER_CODE: (h) => (h === 5 ? 95 : 2),
  FORECAST_METRIC_SHORTWAVE_SOLAR_RADIATION_GHI: () => 500,
  FORECAST_METRIC_DIRECT_NORMAL_IRRADIANCE_DNI: () => NaN,
  FORECAST_METRIC_WIND_DIRECTION: () => 350,
  FORECAST_METRIC_WIND_SPEED: () => 10,
};

function context(store: ForecastStore, now = LOCAL_MIDNIGHT + 2 * HOUR): QueryContext {
  return {
    precipitations: undefined as never,
    thunderstorms: undefined as never,
    forecasts: store,
    areas: () => undefined,
    now: () => now,
    forecastSettings: { weatherIconUrlBase: 'https://icons.test/', maxCellDistanceM: 50_000 },
  };
}

function request(kind: queryV1.ForecastKind, metrics: string[], extra: Partial<queryV1.GetForecastRequest> = {}): queryV1.GetForecastRequest {
  return { geography: { unrestricted: true, areas: [] }, kind, location: { ...ISTANBUL }, metrics, ...extra };
}

describe('point forecasts from the latest run (current, hourly, daily)', () => {
  const store = new ForecastStore();
  store.apply(
    run('run-1', LOCAL_MIDNIGHT - HOUR, [
      { id: 'ist', lng: 29.0, lat: 41.0, series },
      { id: 'ank', lng: 32.85, lat: 39.93, series: { FORECAST_METRIC_TEMPERATURE: () => -5 } },
    ]),
  );

  it("answers the current forecast from the nearest cell, in the point's timezone, with warnings for other metrics", async () => {
    const answer = await getForecast(context(store), request('FORECAST_KIND_CURRENT', ['TEMPERATURE', 'WEATHER_ICON', 'TEMPERATURE_MAX', 'HUMIDITY']));
    assert.equal(answer.cellId, 'ist');
    assert.equal(answer.timezone, 'Europe/Istanbul');
    assert.equal(answer.elevationM, 40);
    assert.deepEqual(answer.location, { lng: 29.0, lat: 41.0 });
    assert.deepEqual(
      answer.metricForecasts.map((m) => [m.metric, m.unit]),
      [
        ['TEMPERATURE', '°C'],
        ['WEATHER_ICON', 'WMO code'],
      ],
    );
    assert.deepEqual(answer.warnings, [
      'Metric not valid for this request: TEMPERATURE_MAX',
      'Metric HUMIDITY is not provided by the forecast model test-model (missing HUMIDITY)',
    ]);
    // From 02:00 local to the end of the local day: 22 hours.
    const temperature = answer.metricForecasts[0]!.forecasts;
    assert.equal(temperature.length, 22);
    assert.deepEqual(temperature[0], { timeEpochMs: LOCAL_MIDNIGHT + 2 * HOUR, time: '2026-06-15T02:00+03:00', isDay: false, value: 12, icon: '' });
    const icons = answer.metricForecasts[1]!.forecasts;
    assert.equal(icons[3]!.icon, 'thunderstorm.svg'); // 05:00
    assert.equal(icons[10]!.icon, 'partly-cloudy-day.svg'); // 12:00, sun up
  });

  it('answers daily statistics and totals per local day, warning about days the run only partly covers', async () => {
    const answer = await getForecast(
      context(store),
      request('FORECAST_KIND_DAILY', ['TEMPERATURE_MAX', 'TEMPERATURE_MIN', 'PRECIPITATION', 'WIND_DIRECTION', 'TEMPERATURE'], { forecastDays: 3 }),
    );
    const by = Object.fromEntries(answer.metricForecasts.map((m) => [m.metric, m.forecasts]));
    assert.deepEqual(
      by['TEMPERATURE_MAX']!.map((f) => [f.time, f.value]),
      [
        ['2026-06-15', 33],
        ['2026-06-16', 33],
        ['2026-06-17', 33],
      ],
    );
    assert.equal(by['TEMPERATURE_MIN']![0]!.value, 10);
    // Hours ending in day one: 01:00 .. 24:00, 23 of them inside the first 24 values at 0.5 mm.
    assert.equal(by['PRECIPITATION']![0]!.value, 11.5);
    assert.equal(by['WIND_DIRECTION']![0]!.value, 350);
    assert.ok(answer.warnings.includes('Metric not valid for this request: TEMPERATURE'));
    assert.ok(
      answer.warnings.some((w) => w.startsWith('Daily values for 2026-06-17 cover only part of the day')),
      answer.warnings.join('; '),
    );
  });

  it('computes tilted-panel radiation: flat panels get the global value, steeper ones less diffuse light', async () => {
    const flat = await getForecast(
      context(store),
      request('FORECAST_KIND_HOURLY', ['GLOBAL_TILTED_RADIATION_GTI'], { startEpochMs: LOCAL_MIDNIGHT + 12 * HOUR, forecastDays: 1 }),
    );
    assert.equal(flat.metricForecasts[0]!.forecasts[0]!.value, 500);
    const tilted = await getForecast(
      context(store),
      request('FORECAST_KIND_HOURLY', ['GLOBAL_TILTED_RADIATION_GTI'], {
        startEpochMs: LOCAL_MIDNIGHT + 12 * HOUR,
        forecastDays: 1,
        panelTiltDeg: 90,
        panelAzimuthDeg: 180,
      }),
    );
    assert.ok(tilted.metricForecasts[0]!.forecasts[0]!.value! < 500, 'a north-facing wall gets less than the horizontal');
  });

  it('prefers a later run, and a complete later run supersedes the older one', async () => {
    const later = new ForecastStore();
    later.apply(run('old', LOCAL_MIDNIGHT - 7 * HOUR, [{ id: 'ist', lng: 29.0, lat: 41.0, series }]));
    later.apply(run('new', LOCAL_MIDNIGHT - HOUR, [{ id: 'ist', lng: 29.0, lat: 41.0, series: { FORECAST_METRIC_TEMPERATURE: () => 99 } }]));
    const answer = await getForecast(context(later), request('FORECAST_KIND_CURRENT', ['TEMPERATURE']));
    assert.equal(answer.runId, 'new');
    assert.equal(answer.metricForecasts[0]!.forecasts[0]!.value, 99);
    assert.deepEqual(
      later.superseded().map((r) => r.runId),
      ['old'],
    );
  });

  it('answers repeated requests alike, and a new revision of the cell with its new values', async () => {
    const revised = new ForecastStore();
    revised.apply(run('rev', LOCAL_MIDNIGHT - HOUR, [{ id: 'ist', lng: 29.0, lat: 41.0, series: { FORECAST_METRIC_TEMPERATURE: () => 1 } }]));
    const ask = (now: number) => getForecast(context(revised, now), request('FORECAST_KIND_CURRENT', ['TEMPERATURE']));
    const first = await ask(LOCAL_MIDNIGHT + 2 * HOUR);
    assert.deepEqual(await ask(LOCAL_MIDNIGHT + 2 * HOUR + 59 * 60_000), first, 'the same hour answers alike');
    const nextHour = await ask(LOCAL_MIDNIGHT + 3 * HOUR);
    assert.equal(nextHour.metricForecasts[0]!.forecasts[0]!.time, '2026-06-15T03:00+03:00', 'a new hour starts later');
    assert.equal(nextHour.metricForecasts[0]!.forecasts.length, 21);
    const event = run('rev', LOCAL_MIDNIGHT - HOUR, [{ id: 'ist', lng: 29.0, lat: 41.0, series: { FORECAST_METRIC_TEMPERATURE: () => 2 } }]);
    revised.apply({ ...event, revision: { ...event.revision!, revision: 2 } });
    const after = await ask(LOCAL_MIDNIGHT + 2 * HOUR);
    assert.equal(after.metricForecasts[0]!.forecasts[0]!.value, 2, 'the revision is answered, not the remembered values');
  });

  it('says 404 when no cell lies near the point, and 400 for out-of-range parameters', async () => {
    await assert.rejects(
      getForecast(context(store), request('FORECAST_KIND_CURRENT', ['TEMPERATURE'], { location: { lng: 44, lat: 37 } })),
      /No forecast is available/,
    );
    await assert.rejects(
      getForecast(context(store), request('FORECAST_KIND_HOURLY', ['TEMPERATURE'], { forecastDays: 15 })),
      /forecastDays must be between 1 and 14/,
    );
  });
});
