import assert from 'node:assert/strict';
import { forecastRun, HOUR, PLACES, precipitation, publishForecast, publishPrecipitations, publishThunderstorms, thunderstorm } from './fixtures.js';
import { eventually, startWeatherStack, type Answer, type WeatherStack } from './support.js';

const MINUTE = 60_000;

function expectError(answer: Answer, status: number, pattern: RegExp): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.match([answer.body.message, ...(answer.body.messages ?? [])].join(' | '), pattern);
}

/**
 * The operations the incumbent offers beyond the contract's section 4: precipitations within a
 * circle, one thunderstorm by id, hourly and daily forecasts (with tilted-panel radiation).
 */
describe('incumbent weather operations through the gateway (within, get, hourly, daily)', function () {
  this.timeout(120_000);
  let stack: WeatherStack;
  let token: string;
  let ankara: string;
  const T = Math.floor(Date.now() / MINUTE) * MINUTE - 10 * MINUTE;
  // A 40 km circle around Ankara: one event at its centre, one crossing its edge, one 80 km away,
  // and one whose box reaches into the circle although its area does not (an L around it).
  const near = precipitation('near', PLACES.ankara, T - MINUTE);
  const edge = precipitation('edge', { lng: PLACES.ankara.lng + 0.5, lat: PLACES.ankara.lat }, T - 2 * MINUTE, 'PRECIPITATION_INTENSITY_LIGHT', {
    halfSize: 0.1,
  });
  const far = precipitation('far', { lng: PLACES.ankara.lng + 0.95, lat: PLACES.ankara.lat }, T - 3 * MINUTE);
  const lShape = precipitation('l-shape', PLACES.ankara, T - 4 * MINUTE, 'PRECIPITATION_INTENSITY_HEAVY', {
    geometry: {
      polygons: [
        {
          exterior: {
            points: [
              { lng: 33.4, lat: 39.5 },
              { lng: 33.6, lat: 39.5 },
              { lng: 33.6, lat: 40.4 },
              { lng: 32.5, lat: 40.4 },
              { lng: 32.5, lat: 40.3 },
              { lng: 33.4, lat: 40.3 },
              { lng: 33.4, lat: 39.5 },
            ],
          },
          holes: [],
        },
      ],
    },
    bbox: { minLng: 32.5, minLat: 39.5, maxLng: 33.6, maxLat: 40.4 },
  });
  const storm = thunderstorm('EAF-42', PLACES.ankara, T - HOUR, T);
  const hour = Math.floor(Date.now() / HOUR) * HOUR;

  before(async () => {
    stack = await startWeatherStack();
    await publishPrecipitations(stack, [near, edge, far, lShape]);
    await publishThunderstorms(stack, [storm]);
    await publishForecast(stack, forecastRun('run-x', hour - HOUR, hour - 24 * HOUR, [{ id: 'ank', at: { lng: 32.85, lat: 39.95 }, base: 0 }], 14 * 24));
    await eventually(async () => (stack.counters.stored >= 6 ? true : undefined), 'query to consume the fixtures', 60_000);
    token = (await stack.user('API_USER', 'BASIC_MONTHLY')).token;
    ankara = (await stack.regionalUser({ country: 'TUR', region: 'Ankara' })).token;
  });
  after(async () => {
    await stack?.stop();
  });

  describe('POST /v1/precipitations/within', () => {
    const within = (body: Record<string, unknown>) =>
      stack.call('POST', '/v1/precipitations/within', {
        token,
        body: { center: PLACES.ankara, radius: 40_000, backwardInterval: 3600, endTimeEpoch: T, pageNumber: 0, pageSize: 100, ...body },
      });

    it('lists the events whose area intersects the circle, tested on the geometry and not only the box', async () => {
      const answer = await within({});
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(
        answer.body.precipitations.map((p: { eventId: string }) => p.eventId),
        ['prc_near', 'prc_edge'],
      );
      assert.equal(answer.body.totalRecords, 2);
      const heavy = await within({ intensityThreshold: 'HEAVY' });
      assert.deepEqual(heavy.body.precipitations, []);
    });

    it('accepts windows up to 30 days and radii up to 50 km, naming the field otherwise', async () => {
      assert.equal((await within({ backwardInterval: 2_592_000 })).status, 200);
      expectError(await within({ backwardInterval: 2_592_001 }), 400, /backwardInterval/);
      expectError(await within({ radius: 50_001 }), 400, /radius/);
      expectError(await within({ center: undefined }), 400, /center/);
    });
  });

  describe('POST /v1/thunderstorms/get', () => {
    it("answers one storm by its id, or by the tracker's own id", async () => {
      for (const eventId of ['tst_EAF-42', 'EAF-42']) {
        const answer = await stack.call('POST', '/v1/thunderstorms/get', { token, body: { eventId } });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(answer.body.eventId, 'tst_EAF-42');
        assert.equal(answer.body.eventEndUtcEpoch, T);
      }
      expectError(await stack.call('POST', '/v1/thunderstorms/get', { token, body: { eventId: 'tst_none' } }), 404, /tst_none/);
    });
  });

  describe('POST /v1/forecasts/hourly and /v1/forecasts/daily', () => {
    const forecast = (kind: 'hourly' | 'daily', body: Record<string, unknown>, as = token) =>
      stack.call('POST', `/v1/forecasts/${kind}`, { token: as, body: { location: PLACES.ankara, ...body } });

    it('answers hourly values of every hourly metric, GTI for the given panel, warnings for daily statistics', async () => {
      const answer = await forecast('hourly', {
        metrics: ['TEMPERATURE', 'PRECIPITATION_PROBABILITY', 'GLOBAL_TILTED_RADIATION_GTI', 'TEMPERATURE_MAX'],
        forecastDays: 2,
        solarPanelTiltForRadiation: 30,
        solarPanelAzimuthForRadiation: 0,
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.timezone, 'Europe/Istanbul');
      assert.deepEqual(
        answer.body.metricForecasts.map((m: { metric: string }) => m.metric),
        ['TEMPERATURE', 'GLOBAL_TILTED_RADIATION_GTI'],
      );
      assert.ok(answer.body.warnings.includes('Metric not valid for this request: TEMPERATURE_MAX'));
      assert.ok(answer.body.warnings.some((w: string) => w.startsWith('Metric PRECIPITATION_PROBABILITY is not provided')));
      const temperature = answer.body.metricForecasts[0].forecasts;
      assert.ok(temperature.length > 24 && temperature.length <= 48, `${temperature.length} hours`);
      const gti = answer.body.metricForecasts[1];
      assert.equal(gti.unit, 'W/m²');
      assert.ok(gti.forecasts.some((f: { value: number }) => f.value > 0));
    });

    it('answers daily statistics per local day', async () => {
      const answer = await forecast('daily', {
        metrics: ['TEMPERATURE_MAX', 'TEMPERATURE_MIN', 'PRECIPITATION', 'SHORTWAVE_RADIATION_SUM', 'TEMPERATURE'],
        forecastDays: 3,
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const by = Object.fromEntries(answer.body.metricForecasts.map((m: { metric: string; forecasts: unknown[] }) => [m.metric, m.forecasts]));
      assert.equal(by['TEMPERATURE_MAX'].length, 3);
      assert.match(by['TEMPERATURE_MAX'][0].time, /^\d{4}-\d{2}-\d{2}$/);
      // Temperature rises a degree an hour from the run's first hour: the maximum of a day is 23 above its minimum.
      for (const [max, min] of by['TEMPERATURE_MAX'].map((d: { value: number }, i: number) => [d.value, by['TEMPERATURE_MIN'][i].value]))
        assert.equal(max - min, 23);
      assert.equal(by['PRECIPITATION'][1].value, 12, 'every other hour 1 mm');
      assert.equal(by['SHORTWAVE_RADIATION_SUM'][1].value, 34.56, '24 h of 400 W/m² in MJ/m²');
      assert.ok(answer.body.warnings.includes('Metric not valid for this request: TEMPERATURE'));
    });

    it('refuses a point outside the subscription area', async () => {
      expectError(await forecast('daily', { metrics: ['TEMPERATURE_MAX'], location: PLACES.istanbul }, ankara), 403, /\[41\.01, 28\.97\].*\[Türkiye, Ankara\]/);
      expectError(await forecast('hourly', { metrics: ['TEMPERATURE'], solarPanelTiltForRadiation: 91 }), 400, /solarPanelTiltForRadiation/);
    });
  });
});
