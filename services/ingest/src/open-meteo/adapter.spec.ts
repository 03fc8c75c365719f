import assert from 'node:assert/strict';
import { feedV1, type weatherV1 } from '@stormhook/proto';
import { createLogger } from '@stormhook/logger';
import { DEFAULT_RULES } from '../domain/rules.js';
import { validateForecast } from '../domain/validate-forecast.js';
import { fakeOpenMeteo, recordedAnswer, type FakeOpenMeteo } from '../test-support/open-meteo-server.js';
import { RecordingSink } from '../test-support/recording-sink.js';
import { fetchForecastRun, runOpenMeteoAdapter, type OpenMeteoOptions } from './adapter.js';
import { parseGrid } from './grid.js';
import { TopicNames } from '@stormhook/kafka';

const FETCHED_AT = Date.UTC(2025, 5, 15, 6, 20);
const istanbulAnkara = JSON.parse(recordedAnswer('forecast-istanbul-ankara')) as Array<{ hourly: Record<string, unknown[]> }>;

function options(server: FakeOpenMeteo, overrides: Partial<OpenMeteoOptions> = {}): OpenMeteoOptions {
  return {
    baseUrl: server.baseUrl,
    points: parseGrid('41,29;40,33'),
    forecastDays: 1,
    model: 'best_match',
    locationsPerRequest: 50,
    timeoutMs: 5_000,
    clock: () => FETCHED_AT,
    ...overrides,
  };
}

function series(cell: feedV1.GridCell, metric: weatherV1.ForecastMetric): number[] {
  return cell.series.find((s) => s.metric === metric)!.values;
}

describe('Open-Meteo adapter (local server with recorded answers)', () => {
  let server: FakeOpenMeteo | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('asks for the grid, hourly metrics, UTC epoch times and canonical units', async () => {
    server = await fakeOpenMeteo(() => ({ status: 200, body: recordedAnswer('forecast-istanbul-ankara') }));
    await fetchForecastRun(options(server));
    const [request] = server.requests;
    const q = request!.searchParams;
    assert.equal(q.get('latitude'), '41.0000,40.0000');
    assert.equal(q.get('longitude'), '29.0000,33.0000');
    assert.equal(q.get('forecast_days'), '1');
    assert.equal(q.get('timeformat'), 'unixtime');
    assert.equal(q.get('timezone'), 'GMT');
    assert.equal(q.get('wind_speed_unit'), 'kmh');
    assert.ok(q.get('hourly')!.split(',').includes('wind_gusts_10m'));
    assert.equal(q.get('models'), null);
  });

  it('maps the recorded answer to one feed.forecast.v1 chunk that ingest accepts', async () => {
    server = await fakeOpenMeteo(() => ({ status: 200, body: recordedAnswer('forecast-istanbul-ankara') }));
    const [chunk, ...rest] = await fetchForecastRun(options(server));
    assert.equal(rest.length, 0);
    assert.equal(chunk!.runId, 'openmeteo-best_match-20250615T06');
    assert.equal(chunk!.issueEpochMs, Date.UTC(2025, 5, 15, 6));
    assert.equal(chunk!.updatedEpochMs, FETCHED_AT);
    assert.equal(chunk!.firstHourEpochMs, Date.UTC(2025, 5, 15, 0));
    assert.equal(chunk!.hourCount, 24);
    assert.deepEqual(
      chunk!.cells.map((c) => [c.cellId, c.latitude, c.longitude, c.elevationM]),
      [
        ['41.000N_29.000E', 41, 29, 39],
        ['40.000N_33.000E', 40, 33, 1012],
      ],
    );
    const ankara = chunk!.cells[1]!;
    assert.equal(ankara.series.length, 20);
    assert.deepEqual(series(ankara, 'FORECAST_METRIC_TEMPERATURE'), istanbulAnkara[1]!.hourly['temperature_2m']);
    assert.deepEqual(series(ankara, 'FORECAST_METRIC_PRECIPITATION').slice(13, 16), [0.4, 1.8, 0.6]);
    // Open-Meteo's null (no value for the hour) becomes NaN.
    assert.ok(Number.isNaN(series(ankara, 'FORECAST_METRIC_VISIBILITY')[23]));
    const decoded = feedV1.ForecastGrid.decode(feedV1.ForecastGrid.encode(chunk!));
    const result = validateForecast(decoded, FETCHED_AT, DEFAULT_RULES);
    assert.ok(result.ok, result.ok ? '' : result.reason);
  });

  it('fetches in batches and reads single-location answers', async () => {
    server = await fakeOpenMeteo((url) => {
      const index = url.searchParams.get('latitude') === '41.0000' ? 0 : 1;
      return { status: 200, body: JSON.stringify(istanbulAnkara[index]) };
    });
    const chunks = await fetchForecastRun(options(server, { locationsPerRequest: 1 }));
    assert.equal(server.requests.length, 2);
    assert.deepEqual(
      chunks[0]!.cells.map((c) => c.cellId),
      ['41.000N_29.000E', '40.000N_33.000E'],
    );
  });

  it('converts other units and ISO local times to the canonical ones', async () => {
    server = await fakeOpenMeteo(() => ({ status: 200, body: recordedAnswer('forecast-ankara-imperial') }));
    const [chunk] = await fetchForecastRun(options(server, { points: parseGrid('39.93,32.86') }));
    const cell = chunk!.cells[0]!;
    // 03:00 in Istanbul (UTC+3) is 00:00 UTC.
    assert.equal(chunk!.firstHourEpochMs, Date.UTC(2025, 5, 15, 0));
    assert.equal(chunk!.hourCount, 6);
    const close = (a: number, b: number) => Math.abs(a - b) < 1e-3;
    assert.ok(close(series(cell, 'FORECAST_METRIC_TEMPERATURE')[0]!, 15), '59 °F is 15 °C');
    assert.ok(close(series(cell, 'FORECAST_METRIC_WIND_SPEED')[0]!, 4.989), '3.1 mph in km/h');
    assert.ok(close(series(cell, 'FORECAST_METRIC_PRECIPITATION')[2]!, 0.508), '0.02 inch in mm');
    assert.ok(close(series(cell, 'FORECAST_METRIC_VISIBILITY')[2]!, 9997.44), '32,800 ft in m');
    assert.ok(Number.isNaN(series(cell, 'FORECAST_METRIC_VISIBILITY')[5]));
  });

  it('fails with the reason on an HTTP error and on a unit it cannot convert', async () => {
    server = await fakeOpenMeteo(() => ({ status: 400, body: '{"error":true,"reason":"Latitude must be in range of -90 to 90°. Given: 91.0."}' }));
    await assert.rejects(fetchForecastRun(options(server)), /HTTP 400 .*Latitude must be in range/);
    await server.close();
    const odd = JSON.parse(recordedAnswer('forecast-ankara-imperial')) as { hourly_units: Record<string, string> };
    odd.hourly_units['wind_speed_10m'] = 'furlongs/fortnight';
    server = await fakeOpenMeteo(() => ({ status: 200, body: JSON.stringify(odd) }));
    await assert.rejects(
      fetchForecastRun(options(server, { points: parseGrid('39.93,32.86') })),
      /unit "furlongs\/fortnight" of wind_speed_10m cannot be converted to km\/h/,
    );
  });

  it('publishes each run chunk by chunk, and keeps going after a failed round', async () => {
    let calls = 0;
    server = await fakeOpenMeteo(() => (++calls === 1 ? { status: 503, body: 'busy' } : { status: 200, body: recordedAnswer('forecast-istanbul-ankara') }));
    const sink = new RecordingSink();
    const abort = new AbortController();
    const logger = createLogger({ service: 'open-meteo-test', level: 'silent' });
    const done = runOpenMeteoAdapter({ ...options(server), sink, logger, intervalMs: 20, signal: abort.signal });
    while (sink.published.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    abort.abort();
    const result = await done;
    assert.equal(result.failures, 1);
    assert.ok(result.runs >= 1);
    const first = sink.published[0]!;
    assert.equal(first.topic, TopicNames.FeedForecast);
    assert.equal(first.event.key, 'openmeteo-best_match-20250615T06#0');
    assert.equal(first.event.eventType, 'stormhook.feed.v1.ForecastGrid');
  });

  it('says clearly that Open-Meteo is unreachable, naming the address, and what happens next', async () => {
    // A port nobody listens on: no HTTP answer at all.
    const closed = await fakeOpenMeteo(() => ({ status: 200, body: '[]' }));
    const baseUrl = closed.baseUrl;
    await closed.close();
    const lines: Array<{ msg: string; level: number }> = [];
    const logger = createLogger({
      service: 'open-meteo-test',
      level: 'info',
      destination: { write: (line: string) => lines.push(JSON.parse(line) as { msg: string; level: number }) },
    });
    const result = await runOpenMeteoAdapter({
      ...options({ baseUrl, requests: [], close: async () => {} }),
      sink: new RecordingSink(),
      logger,
      intervalMs: 0,
    });
    assert.deepEqual(result, { runs: 0, failures: 1 });
    assert.ok(lines.length > 0, JSON.stringify(lines));
    const error = lines.find((l) => /unreachable/.test(l.msg ?? ''));
    assert.match(
      error?.msg ?? '',
      new RegExp(`^Open-Meteo at ${baseUrl.replace(/[.]/g, '\\.')} is unreachable \\(ECONNREFUSED\\): no real forecast this round, no retry`),
    );
    assert.match(error?.msg ?? '', /the feed simulator locally/);
  });
});
