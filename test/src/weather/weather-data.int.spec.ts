import assert from 'node:assert/strict';
import { distanceM } from '@stormhook/geometry';
import { queryV1, type commonV1, type weatherV1 } from '@stormhook/proto';
import { forecastRun, HOUR, PLACES, precipitation, publishForecast, publishPrecipitations, publishThunderstorms, thunderstorm } from './fixtures.js';
import { eventually, startWeatherStack, type Answer, type WeatherStack } from './support.js';

const MINUTE = 60_000;

function expectError(answer: Answer, status: number, pattern: RegExp): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  const text = [answer.body.message, ...(answer.body.messages ?? [])].join(' | ');
  assert.match(text, pattern);
}

const ids = (answer: Answer, list: 'precipitations' | 'thunderstorms') => (answer.body[list] as Array<{ eventId: string }>).map((r) => r.eventId);

/**
 * The weather data endpoints through the gateway, with weather events published to the real Kafka
 * and consumed by the real query service; authentication, subscriptions and geography checks by the
 * real identity and geo services.
 */
describe('weather data through the gateway (query service, real Kafka and database)', function () {
  this.timeout(120_000);
  let stack: WeatherStack;
  let admin: string;
  let country: string; // API_USER with TUR and CTR
  let ankara: string; // API_USER allowed the province of Ankara only
  let power: string; // POWER_USER
  /** The end of the list window of most tests: a whole minute, ten minutes ago. */
  const T = Math.floor(Date.now() / MINUTE) * MINUTE - 10 * MINUTE;

  const precipitations = {
    atEnd: precipitation('at-end', PLACES.ankara, T, 'PRECIPITATION_INTENSITY_MODERATE'),
    heavy: precipitation('heavy', PLACES.ankara, T - MINUTE, 'PRECIPITATION_INTENSITY_HEAVY'),
    istanbul: precipitation('istanbul', PLACES.istanbul, T - 2 * MINUTE, 'PRECIPITATION_INTENSITY_LIGHT'),
    lefkosa: precipitation('lefkosa', PLACES.lefkosa, T - 3 * MINUTE, 'PRECIPITATION_INTENSITY_EXTREME', { halfSize: 0.03 }),
    atStart: precipitation('at-start', PLACES.ankara, T - HOUR, 'PRECIPITATION_INTENSITY_DRIZZLE'),
    beforeStart: precipitation('before-start', PLACES.ankara, T - HOUR - 1, 'PRECIPITATION_INTENSITY_EXTREME'),
    afterEnd: precipitation('after-end', PLACES.ankara, T + 1, 'PRECIPITATION_INTENSITY_EXTREME'),
    revised: precipitation('revised', PLACES.ankara, T - 5 * MINUTE, 'PRECIPITATION_INTENSITY_LIGHT'),
    // Geometry: a square of about 110 km around Ankara, and a small one well inside 30 km of it.
    big: precipitation('big', PLACES.ankara, T - 6 * MINUTE, 'PRECIPITATION_INTENSITY_VERY_HEAVY', { halfSize: 0.5 }),
    small: precipitation('small', { lng: PLACES.ankara.lng + 0.05, lat: PLACES.ankara.lat }, T - 7 * MINUTE, 'PRECIPITATION_INTENSITY_LIGHT', {
      halfSize: 0.05,
      forecast: true,
    }),
  };
  const revision2: weatherV1.PrecipitationEvent = {
    ...precipitations.revised,
    revision: { revision: 2, sourceVersion: 2, sourceUpdatedEpochMs: 0, ingestedEpochMs: 0 },
    intensity: 'PRECIPITATION_INTENSITY_EXTREME',
    radarTimestampEpochMs: T - 4 * MINUTE,
  };
  /** Twelve more in Ankara, every 2 s from 30 s before the end, for paging. */
  const filler = Array.from({ length: 12 }, (_, i) => precipitation(`filler-${i}`, PLACES.ankara, T - 30_000 - i * 2_000, 'PRECIPITATION_INTENSITY_LIGHT'));

  const storms = {
    spanning: thunderstorm('spanning', PLACES.ankara, T - 2 * HOUR, T + HOUR),
    inside: thunderstorm('inside', PLACES.ankara, T - 30 * MINUTE, T - 10 * MINUTE),
    over: thunderstorm('over', PLACES.ankara, T - 5 * HOUR, T - HOUR - 1),
    istanbul: thunderstorm('istanbul', PLACES.istanbul, T - 20 * MINUTE, T - 5 * MINUTE),
  };
  const storm2: weatherV1.ThunderstormEvent = {
    ...storms.inside,
    revision: { revision: 2, sourceVersion: 2, sourceUpdatedEpochMs: 0, ingestedEpochMs: 0 },
    severity: 'THUNDERSTORM_SEVERITY_HIGH',
  };
  const hour = Math.floor(Date.now() / HOUR) * HOUR;
  const run = forecastRun('run-1', hour - HOUR, hour, [
    { id: 'ist', at: { lng: 29.0, lat: 41.0 }, base: 10 },
    { id: 'ist-east', at: { lng: 29.3, lat: 41.2 }, base: 20 },
    { id: 'ank', at: { lng: 32.85, lat: 39.95 }, base: 0 },
    { id: 'lef', at: { lng: 33.35, lat: 35.2 }, base: 25 },
  ]);

  before(async () => {
    stack = await startWeatherStack();
    const all = [...Object.values(precipitations), ...filler];
    // Every record twice (a producer retry): nothing may be doubled. Then the later revision.
    await publishPrecipitations(stack, all);
    await publishPrecipitations(stack, all);
    await publishPrecipitations(stack, [revision2]);
    await publishThunderstorms(stack, [...Object.values(storms), storms.spanning, storm2]);
    await publishForecast(stack, run);
    const expected = all.length * 2 + 1 + Object.keys(storms).length + 2 + 1;
    await eventually(async () => (stack.counters.stored + stack.counters.duplicates >= expected ? true : undefined), 'query to consume the fixtures', 60_000);
    assert.equal(stack.counters.stored, all.length + 1 + Object.keys(storms).length + 1 + 1, JSON.stringify(stack.counters));
    admin = await stack.adminToken();
    country = (await stack.user('API_USER', 'BASIC_MONTHLY')).token;
    power = (await stack.user('POWER_USER', 'BASIC_MONTHLY')).token;
    ankara = (await stack.regionalUser({ country: 'TUR', region: 'Ankara' })).token;
  });
  after(async () => {
    await stack?.stop();
  });

  const page = (token: string, body: Record<string, unknown>) =>
    stack.call('POST', '/v1/precipitations/page', { token, body: { backwardInterval: 3600, endTimeEpoch: T, pageNumber: 0, pageSize: 100, ...body } });

  describe('POST /v1/precipitations/page (4.2)', () => {
    it('includes both window edges, nothing outside, newest first, with the exact total and the query time', async () => {
      const before = Date.now();
      const answer = await page(admin, {});
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const expected = [
        'prc_at-end',
        ...filler.map((f) => f.eventId),
        'prc_heavy',
        'prc_istanbul',
        'prc_lefkosa',
        'prc_revised',
        'prc_big',
        'prc_small',
        'prc_at-start',
      ];
      assert.deepEqual(ids(answer, 'precipitations'), expected);
      assert.equal(answer.body.totalRecords, expected.length);
      assert.equal(answer.body.pageNumber, 0);
      assert.equal(answer.body.pageSize, 100);
      assert.ok(answer.body.queryTimestamp >= before && answer.body.queryTimestamp <= Date.now());
      assert.deepEqual(answer.body.precipitations[0], { eventId: 'prc_at-end', radarTimeStamp: T, forecast: false, intensity: 'MODERATE' });
    });

    it('keeps the threshold intensity and above', async () => {
      const answer = await page(admin, { intensityThreshold: 'HEAVY' });
      assert.deepEqual(ids(answer, 'precipitations'), ['prc_heavy', 'prc_lefkosa', 'prc_revised', 'prc_big']);
      assert.ok((answer.body.precipitations as Array<{ intensity: string }>).every((p) => ['HEAVY', 'VERY_HEAVY', 'EXTREME'].includes(p.intensity)));
    });

    it('pages through the results without gaps or repeats', async () => {
      const full = ids(await page(admin, {}), 'precipitations');
      const pages: string[] = [];
      for (let n = 0; n * 5 < full.length; n++) {
        const answer = await page(admin, { pageNumber: n, pageSize: 5 });
        assert.equal(answer.body.totalRecords, full.length);
        assert.equal(answer.body.pageNumber, n);
        pages.push(...ids(answer, 'precipitations'));
      }
      assert.deepEqual(pages, full);
      const beyond = await page(admin, { pageNumber: 10, pageSize: 5 });
      assert.deepEqual(beyond.body.precipitations, []);
      assert.equal(beyond.body.totalRecords, full.length);
    });

    it("answers only what touches the caller's subscription geography", async () => {
      const region = ids(await page(ankara, {}), 'precipitations');
      assert.ok(region.includes('prc_at-end') && region.includes('prc_big'));
      assert.ok(!region.includes('prc_istanbul'), 'İstanbul is outside the Ankara subscription');
      assert.ok(!region.includes('prc_lefkosa'), 'Northern Cyprus is outside the Ankara subscription');
      const whole = ids(await page(country, {}), 'precipitations');
      assert.ok(whole.includes('prc_istanbul') && whole.includes('prc_lefkosa'), 'TUR and CTR plan');
    });

    it('does not double re-delivered events and shows the latest revision only', async () => {
      const answer = await page(admin, {});
      const list = ids(answer, 'precipitations');
      assert.equal(list.length, new Set(list).size);
      const revised = (answer.body.precipitations as Array<{ eventId: string; intensity: string; radarTimeStamp: number }>).filter(
        (p) => p.eventId === 'prc_revised',
      );
      assert.deepEqual(revised, [{ eventId: 'prc_revised', intensity: 'EXTREME', radarTimeStamp: T - 4 * MINUTE, forecast: false }]);
    });

    it('enforces every limit of section 8 with a 400 naming the field', async () => {
      expectError(await page(admin, { backwardInterval: 59 }), 400, /backwardInterval/);
      expectError(await page(admin, { backwardInterval: 432_001 }), 400, /backwardInterval/);
      expectError(await page(admin, { pageSize: 101 }), 400, /pageSize/);
      expectError(await page(admin, { pageNumber: -1 }), 400, /pageNumber/);
      expectError(await page(admin, { endTimeEpoch: -5 }), 400, /endTimeEpoch/);
      expectError(await page(admin, { intensityThreshold: 'STRONG' }), 400, /intensityThreshold/);
    });
  });

  describe('POST /v1/precipitations/geometry (4.1)', () => {
    const circle = { center: { lng: PLACES.ankara.lng, lat: PLACES.ankara.lat }, radius: 30_000 };
    const geometry = (token: string, body: Record<string, unknown>, accept = 'application/x-protobuf') =>
      stack.call('POST', '/v1/precipitations/geometry', { token, body, headers: { accept } });
    const rings = (shape: queryV1.PolygonShape) => shape.rings.map((r) => r.coordinates.map((c) => ({ lng: c.lng, lat: c.lat })));
    const published = (e: weatherV1.PrecipitationEvent) =>
      (e.geometry?.polygons ?? []).map((p: commonV1.Polygon) => [p.exterior!, ...p.holes].map((r) => r.points.map((c) => ({ lng: c.lng, lat: c.lat }))));

    it('golden: the protobuf FeatureCollection holds one cropped MultiPolygon per event, every vertex inside the circle, an inside polygon unchanged', async () => {
      const answer = await geometry(country, { eventIds: ['prc_big', 'prc_small'], ...circle });
      assert.equal(answer.status, 200, answer.bytes.toString());
      assert.equal(answer.headers.get('content-type'), 'application/x-protobuf');
      const collection = queryV1.PrecipitationFeatureCollection.decode(answer.bytes);
      assert.deepEqual(
        collection.features.map((f) => f.id),
        ['prc_big', 'prc_small'],
      );
      const [big, small] = collection.features;
      assert.equal(big!.geometry?.type, 'GEOMETRY_TYPE_MULTI_POLYGON');
      assert.deepEqual(big!.properties, { intensity: 'VERY_HEAVY', radarTimestamp: T - 6 * MINUTE, forecast: false });
      assert.deepEqual(small!.properties, { intensity: 'LIGHT', radarTimestamp: T - 7 * MINUTE, forecast: true });
      const cropped = big!.geometry!.multiPolygon!.polygons;
      assert.equal(cropped.length, 1);
      const vertices = cropped.flatMap((p) => p.rings.flatMap((r) => r.coordinates));
      assert.ok(vertices.length > 100, 'the 110 km square cropped to the 30 km circle follows the circle');
      for (const v of vertices) {
        const d = distanceM([circle.center.lng, circle.center.lat], [v.lng, v.lat]);
        assert.ok(d <= circle.radius, `vertex ${v.lng},${v.lat} lies ${d} m from the centre`);
      }
      assert.deepEqual(small!.geometry!.multiPolygon!.polygons.map(rings), published(precipitations.small));
    });

    it('answers the same bytes as a base64 JSON string without the protobuf Accept header', async () => {
      const raw = await geometry(country, { eventIds: ['prc_big', 'prc_small'], ...circle });
      const json = await geometry(country, { eventIds: ['prc_big', 'prc_small'], ...circle }, 'application/json');
      assert.equal(json.status, 200);
      assert.match(json.headers.get('content-type') ?? '', /application\/json/);
      assert.equal(typeof json.body, 'string');
      assert.deepEqual(Buffer.from(json.body as string, 'base64'), raw.bytes);
    });

    it('skips unknown ids and names them in X-Missing-Event-Ids', async () => {
      const answer = await geometry(country, { eventIds: ['prc_nope', 'prc_small', 'prc_gone'], ...circle });
      assert.equal(answer.status, 200);
      assert.deepEqual(
        queryV1.PrecipitationFeatureCollection.decode(answer.bytes).features.map((f) => f.id),
        ['prc_small'],
      );
      assert.equal(answer.headers.get('x-missing-event-ids'), 'prc_nope,prc_gone');
    });

    it('lets POWER_USER and above omit center and radius for the full geometry; others get a 400', async () => {
      expectError(await geometry(country, { eventIds: ['prc_big'] }), 400, /center and radius are required/);
      const full = await geometry(power, { eventIds: ['prc_big'] });
      assert.equal(full.status, 200);
      const [feature] = queryV1.PrecipitationFeatureCollection.decode(full.bytes).features;
      assert.deepEqual(feature!.geometry!.multiPolygon!.polygons.map(rings), published(precipitations.big));
    });

    it("treats events outside the caller's geography as unknown", async () => {
      const answer = await geometry(ankara, { eventIds: ['prc_istanbul', 'prc_at-end'], ...circle });
      assert.equal(answer.status, 200);
      assert.deepEqual(
        queryV1.PrecipitationFeatureCollection.decode(answer.bytes).features.map((f) => f.id),
        ['prc_at-end'],
      );
      assert.equal(answer.headers.get('x-missing-event-ids'), 'prc_istanbul');
    });

    it('enforces the limits: at most 10 ids, radius at most 200 km, center and radius together', async () => {
      expectError(await geometry(country, { eventIds: Array.from({ length: 11 }, (_, i) => `prc_${i}`), ...circle }), 400, /eventIds/);
      expectError(await geometry(country, { eventIds: ['prc_big'], center: circle.center, radius: 200_001 }), 400, /radius/);
      expectError(await geometry(country, { eventIds: ['prc_big'], center: circle.center }), 400, /radius/);
    });
  });

  describe('POST /v1/thunderstorms/page (4.3)', () => {
    const storms = (token: string, body: Record<string, unknown> = {}) =>
      stack.call('POST', '/v1/thunderstorms/page', { token, body: { backwardInterval: 3600, endTimeEpoch: T, pageNumber: 0, pageSize: 100, ...body } });

    it('lists storms whose lifetime overlaps the window, latest end first, in the record shape of 2.8', async () => {
      const answer = await storms(admin);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(ids(answer, 'thunderstorms'), ['tst_spanning', 'tst_istanbul', 'tst_inside']);
      assert.equal(answer.body.totalRecords, 3);
      const spanning = answer.body.thunderstorms[0];
      assert.equal(spanning.eventStartUtcEpoch, T - 2 * HOUR);
      assert.equal(spanning.eventEndUtcEpoch, T + HOUR);
      assert.equal(spanning.severity, 'MEDIUM');
      assert.deepEqual(spanning.meta, { country: 'TUR', state: '', city: 'Ankara', speedUnit: 'km/h', speed: 38.9 });
      assert.deepEqual(spanning.cell.flashRates, { inCloud: 4.33, cloudToGround: 0.34, total: 4.67 });
      assert.deepEqual(spanning.cell.centroid, PLACES.ankara);
      assert.equal(spanning.cell.polygon.exterior.length, 5);
      assert.deepEqual(spanning.cell.polygon.holes, []);
      assert.equal(spanning.threatPolygon.exterior.length, 5);
    });

    it("shows the latest revision once, and only storms touching the caller's geography", async () => {
      const answer = await storms(ankara);
      assert.deepEqual(ids(answer, 'thunderstorms'), ['tst_spanning', 'tst_inside']);
      assert.equal(answer.body.thunderstorms[1].severity, 'HIGH');
    });

    it('enforces the limits with a 400 naming the field', async () => {
      expectError(await storms(admin, { backwardInterval: 432_001 }), 400, /backwardInterval/);
      expectError(await storms(admin, { pageSize: 0 }), 400, /pageSize/);
      const missing = await stack.call('POST', '/v1/thunderstorms/page', { token: admin, body: { backwardInterval: 3600, endTimeEpoch: T, pageNumber: 0 } });
      expectError(missing, 400, /pageSize is required/);
    });
  });

  describe('POST /v1/forecasts/current (4.4)', () => {
    const current = (token: string, location: { lng: number; lat: number }, metrics: string[]) =>
      stack.call('POST', '/v1/forecasts/current', { token, body: { location, metrics, forecastDays: 1 } });

    it('answers from the nearest grid cell of the latest run, in Europe/Istanbul for İstanbul, with warnings for other metrics', async () => {
      const answer = await current(country, PLACES.istanbul, ['TEMPERATURE', 'WEATHER_ICON', 'TEMPERATURE_MAX', 'DEW_POINT', 'CLOUD_COVER']);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const body = answer.body;
      assert.deepEqual(body.location, { lng: 29.0, lat: 41.0 });
      assert.equal(body.gridCell.id, 'ist');
      assert.equal(body.timezone, 'Europe/Istanbul');
      assert.equal(body.elevation, 100);
      assert.equal(typeof body.weatherIconUrlBase, 'string');
      assert.deepEqual(
        body.metricForecasts.map((m: { metric: string; unit: string }) => [m.metric, m.unit]),
        [
          ['TEMPERATURE', '°C'],
          ['WEATHER_ICON', 'WMO code'],
        ],
      );
      assert.deepEqual(body.warnings, [
        'Metric not valid for this request: TEMPERATURE_MAX',
        'Metric not valid for this request: DEW_POINT',
        'Metric CLOUD_COVER is not provided by the forecast model icon-test (missing CLOUD_COVER)',
      ]);
      const first = body.metricForecasts[0].forecasts[0];
      // The hour in progress when the answer was made (the clock may have passed an hour since).
      const startHour = Math.floor(Date.now() / HOUR) * HOUR;
      assert.ok(first.epochMillis === startHour || first.epochMillis === startHour - HOUR, `starts at the current hour (${first.epochMillis})`);
      assert.equal(first.value, 10 + (first.epochMillis - hour) / HOUR);
      assert.match(first.time, /^\d{4}-\d{2}-\d{2}T\d{2}:00\+03:00$/);
      const storm = body.metricForecasts[1].forecasts.find((f: { epochMillis: number }) => f.epochMillis === hour + 2 * HOUR);
      if (storm) assert.equal(storm.icon, 'thunderstorm.svg');
    });

    it("names Northern Cyprus's own timezone for Lefkoşa", async () => {
      const answer = await current(country, PLACES.lefkosa, ['TEMPERATURE']);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.gridCell.id, 'lef');
      assert.equal(answer.body.timezone, 'Asia/Famagusta');
    });

    it('refuses a place outside the subscription, and unknown metric names with a 400', async () => {
      expectError(
        await current(ankara, PLACES.istanbul, ['TEMPERATURE']),
        403,
        /Is Not Within The Geographic Boundaries Allowed In Your Subscription \[Türkiye, Ankara\]/,
      );
      expectError(await current(country, PLACES.istanbul, ['RAINBOWS']), 400, /metrics/);
      expectError(await current(country, PLACES.istanbul, []), 400, /metrics/);
      const days = await stack.call('POST', '/v1/forecasts/current', {
        token: country,
        body: { location: PLACES.istanbul, metrics: ['TEMPERATURE'], forecastDays: 15 },
      });
      expectError(days, 400, /forecastDays/);
    });
  });

  describe('retention', () => {
    it('purges events older than the configured age (default 30 days) from the lists and the geometry', async () => {
      const old = precipitation('ancient', PLACES.ankara, Date.now() - 31 * 24 * HOUR);
      await publishPrecipitations(stack, [old]);
      const lookup = () =>
        stack.call('POST', '/v1/precipitations/geometry', { token: admin, body: { eventIds: ['prc_ancient'] }, headers: { accept: 'application/x-protobuf' } });
      await eventually(async () => ((await lookup()).headers.get('x-missing-event-ids') === null ? true : undefined), 'the old event to be consumed');
      const result = await stack.maintenance().purgeNow();
      assert.ok(result.precipitations.entries >= 1, JSON.stringify(result));
      assert.equal((await lookup()).headers.get('x-missing-event-ids'), 'prc_ancient');
      // Recent events stay.
      assert.ok(ids(await page(admin, {}), 'precipitations').includes('prc_at-end'));
    });
  });
});
