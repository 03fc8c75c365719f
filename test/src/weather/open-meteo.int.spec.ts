import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchForecastRun, parseGrid, publishForecastRun } from '@stormhook/ingest';
import { HOUR, PLACES } from './fixtures.js';
import { eventually, startWeatherStack, type WeatherStack } from './support.js';

/** Open-Meteo's recorded answer for İstanbul and Ankara (ingest's fixture, 24 hourly values each). */
const RECORDED = readFileSync(new URL('../../../services/ingest/src/open-meteo/fixtures/forecast-istanbul-ankara.json', import.meta.url), 'utf8');

type Location = { hourly: Record<string, number[]> };

/**
 * The recorded answer moved in time so that its third hour is the current hour: the values are
 * Open-Meteo's own, only the clock is today's (a forecast of last year answers no current request).
 */
function replayedNow(): { body: string; startMillis: number } {
  const locations = JSON.parse(RECORDED) as Location[];
  const startMillis = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
  const shift = startMillis / 1000 - locations[0]!.hourly['time']![0]!;
  for (const location of locations) location.hourly['time'] = location.hourly['time']!.map((t) => t + shift);
  return { body: JSON.stringify(locations), startMillis };
}

/**
 * Issue 14 item 2: a local server replays recorded Open-Meteo answers; the adapter's real fetch,
 * parsing and publishing put the run on feed.forecast.v1, and ingest and query carry it all the way to
 * POST /v1/forecasts/current (real Kafka and database).
 */
describe('Open-Meteo forecasts to /v1/forecasts/current (recorded answers, real pipeline)', function () {
  this.timeout(90_000);
  let stack: WeatherStack;
  let server: Server;
  let baseUrl: string;
  let replayStartMillis: number;
  const requests: string[] = [];

  before(async () => {
    const replay = replayedNow();
    replayStartMillis = replay.startMillis;
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(replay.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    stack = await startWeatherStack({ withIngest: true });
  });
  after(async () => {
    await stack?.stop();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it("answers the current forecast of Ankara with Open-Meteo's values and model", async () => {
    const chunks = await fetchForecastRun({
      baseUrl,
      points: parseGrid('41,29;40,33'),
      forecastDays: 1,
      model: 'best_match',
      locationsPerRequest: 50,
      timeoutMs: 5_000,
    });
    assert.equal(requests.length, 1);
    assert.match(requests[0]!, /^\/v1\/forecast\?latitude=41\.0000%2C40\.0000&longitude=29\.0000%2C33\.0000/);
    await publishForecastRun(stack.publisher, chunks);
    const token = (await stack.user('API_USER', 'BASIC_MONTHLY')).token;
    const hourBefore = Math.floor(Date.now() / HOUR) * HOUR;
    const answer = await eventually(async () => {
      const a = await stack.call('POST', '/v1/forecasts/current', { token, body: { location: PLACES.ankara, metrics: ['TEMPERATURE'], forecastDays: 1 } });
      return a.status === 200 ? a : undefined;
    }, 'the Open-Meteo run to reach query');
    assert.equal(answer.body.model, 'open-meteo:best_match');
    assert.equal(answer.body.gridCell.id, '40.000N_33.000E');
    const recorded = (JSON.parse(RECORDED) as Location[])[1]!.hourly['temperature_2m']!;
    const first = answer.body.metricForecasts[0].forecasts[0];
    // The clock may pass an hour between the replay and the answer (CI did, once): the current
    // hour is then the recorded fourth, so the expected value follows the hour answered.
    const hourAfter = Math.floor(Date.now() / HOUR) * HOUR;
    assert.ok(first.epochMillis >= hourBefore && first.epochMillis <= hourAfter, `starts at the current hour (${new Date(first.epochMillis).toISOString()})`);
    const index = (first.epochMillis - replayStartMillis) / HOUR;
    assert.ok(index >= 2 && index <= 3, `the answer starts at the recorded hour ${index}`);
    assert.equal(first.value, recorded[index], 'the recorded temperature of that hour');
  });
});
