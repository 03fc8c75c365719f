import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { queryV1 } from '@stormhook/proto';
import { createCustomer, type Customer } from './support/customer.js';
import { e2eStack, type E2eStack } from './support/e2e-stack.js';
import { assertError } from './support/errors.js';
import { forecastGrid, HOUR, MINUTE, precipitation, thunderstorm } from './support/feed-records.js';
import { eventually, metresBetween } from './support/geo-math.js';
import { CANKAYA, ISTANBUL } from './support/places.js';

/** A point of Ankara province far (> 60 km) from the grid cells other scenarios publish. */
const KIZILCAHAMAM = { lng: 32.65, lat: 40.47 };

/**
 * interface.md 4.1 to 4.4 and the limits of section 8, fed the way data arrives in production:
 * records on the raw feed topics, validated by ingest, read models built by query, read via /v1.
 */
describe('e2e: weather data from the feed topics to /v1 (4.1 - 4.4)', function () {
  this.timeout(90_000);
  let stack: E2eStack;
  let ankara: Customer;
  let admin: string;
  const tag = `wx${randomBytes(3).toString('hex')}`;
  const now = Date.now();
  const radarTime = Math.floor(now / MINUTE) * MINUTE - 2 * MINUTE;
  const hour = Math.floor(now / HOUR) * HOUR;
  const ids = { ankara: `prc_${tag}-ank`, istanbul: `prc_${tag}-ist`, storm: `tst_${tag}-storm` };
  const page = (extra: Record<string, unknown> = {}) => ({ backwardInterval: 3600, endTimeEpoch: Date.now() + MINUTE, pageNumber: 0, pageSize: 100, ...extra });

  before(async function () {
    this.timeout(300_000);
    stack = await e2eStack();
    admin = await stack.adminToken();
    ankara = await createCustomer(stack.api, admin, {
      geoBoundary: { country: 'TUR', region: 'Ankara' },
      limits: { precipitations: 1000, thunderstorms: 1000, forecasts: 1000 },
    });
    const feed = await stack.feed();
    await feed.precipitation([
      precipitation(`${tag}-ank`, CANKAYA.centre, radarTime, { rainRate: 12 }),
      precipitation(`${tag}-ist`, ISTANBUL, radarTime, { rainRate: 3 }),
    ]);
    await feed.thunderstorm([thunderstorm(`${tag}-storm`, CANKAYA.centre, now - 10 * MINUTE, now + 20 * MINUTE)]);
    await feed.forecast([
      forecastGrid(
        `${tag}-run`,
        hour - HOUR,
        hour,
        [
          { id: `${tag}-ank`, at: KIZILCAHAMAM, base: 10, slope: 0.5 },
          { id: `${tag}-ist`, at: { lng: 29.0, lat: 41.0 }, base: 15 },
        ],
        72,
        `model-${tag}`,
      ),
    ]);
  });

  it("lists only the precipitation inside the subscription's region, classified from the rain rate (4.2)", async () => {
    const all = await eventually(
      async () => {
        const answer = await stack.api.expect(200, 'POST', '/v1/precipitations/page', { token: admin, body: page() });
        const ours = answer.body.precipitations.filter((p: { eventId: string }) => p.eventId.includes(tag));
        return ours.length === 2 ? ours : undefined;
      },
      'both radar observations to reach the list',
      45_000,
    );
    assert.equal(all.length, 2);
    const mine = await stack.api.expect(200, 'POST', '/v1/precipitations/page', { token: ankara.token, body: page() });
    assert.deepEqual(
      mine.body.precipitations.filter((p: { eventId: string }) => p.eventId.includes(tag)),
      [{ eventId: ids.ankara, radarTimeStamp: radarTime, forecast: false, intensity: 'HEAVY' }],
    );
    assert.equal(typeof mine.body.queryTimestamp, 'number');
    const heavier = await stack.api.expect(200, 'POST', '/v1/precipitations/page', { token: ankara.token, body: page({ intensityThreshold: 'VERY_HEAVY' }) });
    assert.equal(heavier.body.precipitations.filter((p: { eventId: string }) => p.eventId.includes(tag)).length, 0);
  });

  it('returns the event geometry as base64 protobuf, cropped to the circle (4.1)', async () => {
    const radius = 2_000;
    const answer = await stack.api.expect(200, 'POST', '/v1/precipitations/geometry', {
      token: ankara.token,
      body: { eventIds: [ids.ankara], center: CANKAYA.centre, radius },
    });
    assert.equal(typeof answer.body, 'string');
    const collection = queryV1.PrecipitationFeatureCollection.decode(Buffer.from(answer.body, 'base64'));
    assert.equal(collection.features.length, 1);
    const feature = collection.features[0]!;
    assert.equal(feature.id, ids.ankara);
    assert.equal(feature.geometry?.type, 'GEOMETRY_TYPE_MULTI_POLYGON');
    const coordinates = (feature.geometry?.multiPolygon?.polygons ?? []).flatMap((p) => p.rings.flatMap((r) => r.coordinates));
    assert.ok(coordinates.length > 4, 'a cropped polygon');
    const farthest = Math.max(...coordinates.map((c) => metresBetween(c, CANKAYA.centre)));
    assert.ok(farthest <= radius * 1.02, `cropped to ${radius} m, farthest vertex ${farthest.toFixed(0)} m`);
  });

  it('lists the thunderstorm with its cell and threat polygon (4.3)', async () => {
    const storms = await eventually(
      async () => {
        const answer = await stack.api.expect(200, 'POST', '/v1/thunderstorms/page', { token: ankara.token, body: page() });
        const ours = answer.body.thunderstorms.filter((t: { eventId: string }) => t.eventId === ids.storm);
        return ours.length === 1 ? ours : undefined;
      },
      'the thunderstorm to reach the list',
      45_000,
    );
    const storm = storms[0];
    assert.equal(storm.severity, 'MEDIUM');
    assert.deepEqual(storm.cell.centroid, CANKAYA.centre);
    assert.equal(storm.eventStartUtcEpoch, now - 10 * MINUTE);
    assert.equal(storm.eventEndUtcEpoch, now + 20 * MINUTE);
    assert.deepEqual(storm.threatPolygon.exterior[0], storm.threatPolygon.exterior.at(-1));
  });

  it('answers the current forecast at a point of the region, with warnings for metrics it does not serve (4.4)', async () => {
    const body = { location: KIZILCAHAMAM, metrics: ['TEMPERATURE', 'SOIL_MOISTURE'], forecastDays: 1 };
    const answer = await eventually(
      async () => {
        const a = await stack.api.call('POST', '/v1/forecasts/current', { token: ankara.token, body });
        return a.status === 200 && a.body.metricForecasts?.length > 0 ? a : undefined;
      },
      'the forecast run to reach query',
      45_000,
    );
    assert.equal(answer.body.gridCell?.id, `${tag}-ank`, 'answered from the nearest cell of this run');
    assert.equal(answer.body.timezone, 'Europe/Istanbul');
    assert.equal(answer.body.elevation, 900);
    const temperature = answer.body.metricForecasts.find((m: { metric: string }) => m.metric === 'TEMPERATURE');
    const current = temperature.forecasts.find((f: { epochMillis: number }) => f.epochMillis === Math.floor(Date.now() / HOUR) * HOUR);
    assert.equal(current?.value, 10 + 0.5 * ((Math.floor(Date.now() / HOUR) * HOUR - hour) / HOUR));
    assert.ok(
      answer.body.warnings.some((w: string) => w.includes('SOIL_MOISTURE')),
      JSON.stringify(answer.body.warnings),
    );
  });

  it('refuses what section 8 limits with a 400 naming the field', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['/v1/precipitations/page', page({ backwardInterval: 59 }), /backwardInterval/],
      ['/v1/precipitations/page', page({ backwardInterval: 432_001 }), /backwardInterval/],
      ['/v1/precipitations/page', page({ pageSize: 101 }), /pageSize/],
      ['/v1/thunderstorms/page', page({ pageNumber: -1 }), /pageNumber/],
      ['/v1/precipitations/geometry', { eventIds: Array.from({ length: 11 }, (_, i) => `prc_${i}`), center: CANKAYA.centre, radius: 100 }, /eventIds/],
      ['/v1/precipitations/geometry', { eventIds: [], center: CANKAYA.centre, radius: 200_001 }, /radius/],
      ['/v1/forecasts/current', { location: CANKAYA.centre, metrics: ['TEMPERATURE'], forecastDays: 15 }, /forecastDays/],
      ['/v1/forecasts/current', { location: CANKAYA.centre, metrics: [], forecastDays: 1 }, /metrics/],
    ];
    for (const [path, body, field] of cases) {
      const answer = await stack.api.call('POST', path, { token: ankara.token, body });
      assert.match(assertError(answer, 400, path).message, field, `${path} ${JSON.stringify(body).slice(0, 200)}`);
    }
  });
});
