import assert from 'node:assert/strict';
import { FORECAST_THRESHOLDS } from '@stormhook/webhooks';
import {
  ANKARA,
  CANKAYA,
  ISTANBUL,
  KADIKOY,
  KECIOREN,
  KIZILAY,
  errorMessage,
  fullWebhook,
  startAlarmStack,
  type AlarmStack,
  type TestUser,
} from './support.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Every registration endpoint of the three alarm kinds (interface.md 2.3 to 2.5, 4.5 to 4.8) through
 * the gateway, over the real alarm-matcher, geo (shared boundary data), notifier and identity.
 */
describe('alarm registrations through the gateway (three kinds)', function () {
  this.timeout(120_000);
  let stack: AlarmStack;
  let owner: TestUser;

  before(async () => {
    stack = await startAlarmStack();
    owner = await stack.user('API_USER');
    // The first registration of the account stores its webhook; every test after it reuses it.
    const first = await stack.call('POST', '/v1/alarms/geometries/register', {
      token: owner.token,
      body: {
        recipientId: 'bootstrap',
        boundary: { cityId: ISTANBUL, districtId: KADIKOY },
        webhook: fullWebhook('http://127.0.0.1:9/hooks'),
        filter: { lightning: {} },
      },
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
  });
  after(async () => {
    await stack?.stop();
  });

  const webhook = () => ({ accountId: owner.accountId });
  const call = (method: string, path: string, body?: unknown) => stack.call(method, path, { token: owner.token, body });

  /** The common part of 2.3 to 2.5 every answer must have. */
  function assertRegistration(body: Record<string, any>): void {
    assert.match(body['registrationId'], UUID);
    assert.match(body['createdAt'], ISO);
    assert.match(body['updatedAt'], ISO);
    assert.ok(Array.isArray(body['warnings']));
    assert.equal(body['webhook']['accountId'], owner.accountId);
    assert.equal(body['webhook']['url'], 'http://127.0.0.1:9/hooks');
    assert.deepEqual(body['webhook']['authentication'], { username: 'ops', password: '******' });
    assert.ok(!JSON.stringify(body).includes('hook-secret-1'), 'the password never leaves');
  }

  describe('geometry alarms (/v1/alarms/geometries)', () => {
    let id = '';
    const filter = {
      lightning: { type: 'FLASH_CLOUD_TO_GROUND', peakCurrent: -12500, inCloudHeight: 4500 },
      thunderstorm: { intersectsAffectedPolygon: true, intersectsCellPolygon: false, severityThreshold: 'MEDIUM', speedThreshold: 20 },
      precipitation: { intensities: ['LIGHT', 'MODERATE'] },
    };

    it('registers (4.5) and answers the stored registration with createdAt, updatedAt and warnings', async () => {
      const answer = await call('POST', '/v1/alarms/geometries/register', {
        recipientId: 'geo-r1',
        boundary: { cityId: ANKARA, districtId: CANKAYA },
        webhook: webhook(),
        filter,
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assertRegistration(answer.body);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      assert.equal(answer.body['recipientId'], 'geo-r1');
      assert.deepEqual(answer.body['boundary'], { cityId: ANKARA, districtId: CANKAYA });
      assert.deepEqual(answer.body['filter'], filter);
      assert.equal(answer.body['createdAt'], answer.body['updatedAt']);
      // inCloudHeight with FLASH_CLOUD_TO_GROUND has no effect: the matcher says so.
      assert.ok(
        answer.body['warnings'].some((w: string) => /inCloudHeight/.test(w)),
        JSON.stringify(answer.body['warnings']),
      );
      id = answer.body['registrationId'];
    });

    it('gets it by id', async () => {
      const answer = await call('GET', `/v1/alarms/geometries/get-by-id/${id}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assertRegistration(answer.body);
      assert.equal(answer.body['registrationId'], id);
      assert.deepEqual(answer.body['filter'], filter);
    });

    it('updates it with PUT .../update (full registration with registrationId): createdAt kept, updatedAt moves', async () => {
      const before = (await call('GET', `/v1/alarms/geometries/get-by-id/${id}`)).body;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const answer = await call('PUT', '/v1/alarms/geometries/update', {
        registrationId: id,
        recipientId: 'geo-r1',
        boundary: { cityId: ANKARA },
        webhook: webhook(),
        filter: { precipitation: { intensities: ['HEAVY'] } },
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assertRegistration(answer.body);
      assert.equal(answer.body['registrationId'], id);
      assert.deepEqual(answer.body['boundary'], { cityId: ANKARA });
      assert.deepEqual(answer.body['filter'], { precipitation: { intensities: ['HEAVY'] } });
      assert.equal(answer.body['createdAt'], before['createdAt']);
      assert.ok(answer.body['updatedAt'] > before['updatedAt'], `${answer.body['updatedAt']} after ${before['updatedAt']}`);
      assert.deepEqual((await call('GET', `/v1/alarms/geometries/get-by-id/${id}`)).body['boundary'], { cityId: ANKARA });
    });

    it('keeps the early-warning fields (an extension beyond the contract) through update and get-by-id', async () => {
      const early = {
        lightning: { approachRadius: 15000 },
        thunderstorm: { severityThreshold: 'MEDIUM', approach: { leadMinutes: 20 } },
        precipitation: { intensities: ['HEAVY'], approach: { leadMinutes: 45 } },
      };
      const answer = await call('PUT', '/v1/alarms/geometries/update', {
        registrationId: id,
        recipientId: 'geo-r1',
        boundary: { cityId: ANKARA },
        webhook: webhook(),
        filter: early,
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body['filter'], early);
      assert.deepEqual((await call('GET', `/v1/alarms/geometries/get-by-id/${id}`)).body['filter'], early);
    });

    it('pages with filterByRecipientIds and filterByBoundary', async () => {
      const other = await call('POST', '/v1/alarms/geometries/register', {
        recipientId: 'geo-r2',
        boundary: { cityId: ANKARA, districtId: KECIOREN },
        webhook: webhook(),
        filter,
      });
      assert.equal(other.status, 200, JSON.stringify(other.body));
      const all = await call('POST', '/v1/alarms/geometries/page', { pageNumber: 0, pageSize: 10 });
      assert.equal(all.status, 200, JSON.stringify(all.body));
      assert.equal(all.body['totalRecords'], 3); // bootstrap, geo-r1, geo-r2
      assert.deepEqual(Object.keys(all.body).sort(), ['pageNumber', 'pageSize', 'registrations', 'totalRecords']);
      const byRecipient = await call('POST', '/v1/alarms/geometries/page', { pageNumber: 0, pageSize: 10, filterByRecipientIds: ['geo-r2', 'nobody'] });
      assert.deepEqual(
        byRecipient.body['registrations'].map((r: any) => r.registrationId),
        [other.body['registrationId']],
      );
      const byBoundary = await call('POST', '/v1/alarms/geometries/page', { pageNumber: 0, pageSize: 10, filterByBoundary: { cityId: ANKARA } });
      assert.deepEqual(
        byBoundary.body['registrations'].map((r: any) => r.registrationId),
        [id],
      );
      const second = await call('POST', '/v1/alarms/geometries/page', { pageNumber: 1, pageSize: 2 });
      assert.equal(second.body['registrations'].length, 1);
      assert.equal(second.body['pageNumber'], 1);
      assert.equal(second.body['pageSize'], 2);
      assert.equal(second.body['totalRecords'], 3);
    });

    it('lists by recipient id with paging query parameters', async () => {
      for (const districtId of [KECIOREN, CANKAYA]) {
        const made = await call('POST', '/v1/alarms/geometries/register', {
          recipientId: 'geo-many',
          boundary: { cityId: ANKARA, districtId },
          webhook: webhook(),
          filter,
        });
        assert.equal(made.status, 200, JSON.stringify(made.body));
      }
      const first = await call('GET', '/v1/alarms/geometries/get-by-recipient-id/geo-many?pageNumber=0&pageSize=1');
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body['totalRecords'], 2);
      assert.equal(first.body['pageSize'], 1);
      assert.equal(first.body['registrations'].length, 1);
      assert.deepEqual(first.body['registrations'][0].boundary, { cityId: ANKARA, districtId: KECIOREN }, 'oldest first');
      const second = await call('GET', '/v1/alarms/geometries/get-by-recipient-id/geo-many?pageNumber=1&pageSize=1');
      assert.deepEqual(second.body['registrations'][0].boundary, { cityId: ANKARA, districtId: CANKAYA });
      const defaults = await call('GET', '/v1/alarms/geometries/get-by-recipient-id/geo-many');
      assert.equal(defaults.body['pageSize'], 20);
      assert.equal(defaults.body['registrations'].length, 2);
      const none = await call('GET', '/v1/alarms/geometries/get-by-recipient-id/nobody');
      assert.deepEqual(none.body, { registrations: [], totalRecords: 0, pageNumber: 0, pageSize: 20 });
    });

    it('refuses a second registration of the same recipient on the same area (409)', async () => {
      const again = await call('POST', '/v1/alarms/geometries/register', {
        recipientId: 'geo-r2',
        boundary: { cityId: ANKARA, districtId: KECIOREN },
        webhook: webhook(),
        filter: {},
      });
      assert.match(errorMessage(again, 409), /already has a geometry alarm on this boundary/);
    });

    it('unregisters (4.6): 204, then it is no longer returned', async () => {
      const removed = await call('DELETE', `/v1/alarms/geometries/unregister/${id}`);
      assert.equal(removed.status, 204);
      errorMessage(await call('GET', `/v1/alarms/geometries/get-by-id/${id}`), 404);
      errorMessage(await call('DELETE', `/v1/alarms/geometries/unregister/${id}`), 404);
      const page = await call('POST', '/v1/alarms/geometries/page', { filterByRecipientIds: ['geo-r1'] });
      assert.equal(page.body['totalRecords'], 0);
    });
  });

  describe('forecast alarms (/v1/alarms/forecasts)', () => {
    let adminId = '';
    let pointId = '';

    it('registers an ADMINISTRATIVE alarm: the district named in resolvedAdministrativeBoundary', async () => {
      const answer = await call('POST', '/v1/alarms/forecasts/register', {
        recipientId: 'fc-1',
        boundary: { type: 'ADMINISTRATIVE', cityId: ANKARA, districtId: CANKAYA },
        forecastDays: 14,
        forecastAlarmDelivery: ['MORNING', 'EVENING'],
        webhook: webhook(),
        filter: { precipitationThreshold: 'MODERATE', windGustThreshold: 'STRONG_WIND', coldTemperatureThreshold: 'COLD_SNAP' },
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assertRegistration(answer.body);
      assert.deepEqual(answer.body['boundary'], { type: 'ADMINISTRATIVE', cityId: ANKARA, districtId: CANKAYA });
      assert.equal(answer.body['forecastDays'], 14);
      assert.deepEqual(answer.body['forecastAlarmDelivery'], ['MORNING', 'EVENING']);
      assert.deepEqual(answer.body['filter'], { precipitationThreshold: 'MODERATE', windGustThreshold: 'STRONG_WIND', coldTemperatureThreshold: 'COLD_SNAP' });
      assert.deepEqual(answer.body['resolvedAdministrativeBoundary'], { cityId: ANKARA, cityName: 'Ankara', districtId: CANKAYA, districtName: 'Çankaya' });
      adminId = answer.body['registrationId'];
    });

    it('registers a POINT alarm: resolvedAdministrativeBoundary is the district containing the point', async () => {
      const answer = await call('POST', '/v1/alarms/forecasts/register', {
        recipientId: 'fc-1',
        boundary: { type: 'POINT', point: KIZILAY },
        forecastDays: 3,
        forecastAlarmDelivery: ['EVENING'],
        webhook: webhook(),
        filter: { hotTemperatureThreshold: 'HOT_SNAP' },
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assertRegistration(answer.body);
      assert.deepEqual(answer.body['boundary'], { type: 'POINT', point: KIZILAY });
      assert.deepEqual(answer.body['resolvedAdministrativeBoundary'], { cityId: ANKARA, cityName: 'Ankara', districtId: CANKAYA, districtName: 'Çankaya' });
      // No forecast run is stored yet, so no grid cell: a warning, not an error.
      assert.equal(answer.body['resolvedForecastCell'], undefined);
      assert.ok(
        answer.body['warnings'].some((w: string) => /cell/i.test(w)),
        JSON.stringify(answer.body['warnings']),
      );
      pointId = answer.body['registrationId'];
    });

    it('gets by id (4.7) and updates', async () => {
      const got = await call('GET', `/v1/alarms/forecasts/get-by-id/${pointId}`);
      assert.equal(got.status, 200, JSON.stringify(got.body));
      assert.equal(got.body['forecastDays'], 3);
      const { createdAt, updatedAt, warnings, resolvedAdministrativeBoundary, ...editable } = got.body;
      const updated = await call('PUT', '/v1/alarms/forecasts/update', {
        ...editable,
        forecastDays: 7,
        forecastAlarmDelivery: ['MORNING'],
        filter: { snowFallThreshold: 'HEAVY' },
      });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.equal(updated.body['forecastDays'], 7);
      assert.deepEqual(updated.body['forecastAlarmDelivery'], ['MORNING']);
      assert.deepEqual(updated.body['filter'], { snowFallThreshold: 'HEAVY' });
      assert.equal(updated.body['createdAt'], createdAt);
      assert.ok(updated.body['updatedAt'] >= updatedAt);
      void warnings;
      void resolvedAdministrativeBoundary;
    });

    it('pages by boundary and lists by recipient id', async () => {
      const byPoint = await call('POST', '/v1/alarms/forecasts/page', { pageNumber: 0, pageSize: 10, filterByBoundary: { type: 'POINT', point: KIZILAY } });
      assert.equal(byPoint.status, 200, JSON.stringify(byPoint.body));
      assert.deepEqual(
        byPoint.body['registrations'].map((r: any) => r.registrationId),
        [pointId],
      );
      const byDistrict = await call('POST', '/v1/alarms/forecasts/page', { filterByBoundary: { type: 'ADMINISTRATIVE', cityId: ANKARA, districtId: CANKAYA } });
      assert.deepEqual(
        byDistrict.body['registrations'].map((r: any) => r.registrationId),
        [adminId],
      );
      const byRecipient = await call('GET', '/v1/alarms/forecasts/get-by-recipient-id/fc-1?pageSize=1&pageNumber=1');
      assert.equal(byRecipient.body['totalRecords'], 2);
      assert.deepEqual(
        byRecipient.body['registrations'].map((r: any) => r.registrationId),
        [pointId],
      );
    });

    it('unregisters', async () => {
      assert.equal((await call('DELETE', `/v1/alarms/forecasts/unregister/${adminId}`)).status, 204);
      errorMessage(await call('GET', `/v1/alarms/forecasts/get-by-id/${adminId}`), 404);
      // A forecast id is not a geometry alarm: each kind sees only its own registrations.
      errorMessage(await call('GET', `/v1/alarms/geometries/get-by-id/${pointId}`), 404);
    });

    it('serves the threshold table, equal to the one the OpenAPI document lists', async () => {
      const answer = await call('GET', '/v1/alarms/forecasts/thresholds');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const fromTable = Object.entries(FORECAST_THRESHOLDS).flatMap(([filterField, scale]) =>
        scale.values.map(([name, value]) => ({
          filterField,
          name,
          metric: scale.metric,
          unit: scale.unit,
          value,
          comparison: scale.comparison,
          aggregation: scale.aggregation,
        })),
      );
      assert.deepEqual(answer.body['thresholds'], fromTable);
      errorMessage(await stack.call('GET', '/v1/alarms/forecasts/thresholds'), 401);
    });

    it('runs a forecast slot on demand for ADMIN only', async () => {
      const admin = await stack.adminToken();
      const run = await stack.call('POST', '/v1/alarms/forecasts/run-slot', { token: admin, body: { delivery: 'MORNING', date: '2025-09-14' } });
      assert.equal(run.status, 200, JSON.stringify(run.body));
      assert.equal(run.body['slotId'], '2025-09-14T04:00Z');
      assert.equal(run.body['evaluated'], true);
      assert.equal(run.body['late'], true);
      assert.equal(run.body['notifications'], 0);
      const again = await stack.call('POST', '/v1/alarms/forecasts/run-slot', { token: admin, body: { delivery: 'MORNING', date: '2025-09-14' } });
      assert.equal(again.body['evaluated'], false, 'exactly one evaluation per slot without rerun');
      const rerun = await stack.call('POST', '/v1/alarms/forecasts/run-slot', { token: admin, body: { delivery: 'MORNING', date: '2025-09-14', rerun: true } });
      assert.equal(rerun.body['evaluated'], true);
      errorMessage(await call('POST', '/v1/alarms/forecasts/run-slot', { delivery: 'EVENING' }), 403);
      assert.match(errorMessage(await stack.call('POST', '/v1/alarms/forecasts/run-slot', { token: admin, body: { delivery: 'NOON' } }), 400), /delivery/);
    });
  });

  describe('point alarms (/v1/alarms/points)', () => {
    let id = '';
    const ringAround = (lng: number, lat: number, d: number) => [
      [lng - d, lat - d],
      [lng + d, lat - d],
      [lng + d, lat + d],
      [lng - d, lat + d],
      [lng - d, lat - d],
    ];

    it('registers with a point and a radius in metres', async () => {
      const answer = await call('POST', '/v1/alarms/points/register', {
        recipientId: 'pt-1',
        boundary: { point: KIZILAY, radius: 10000 },
        webhook: webhook(),
        filter: { lightning: { peakCurrent: 20000 }, thunderstorm: { severityThreshold: 'HIGH' } },
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assertRegistration(answer.body);
      assert.deepEqual(answer.body['boundary'], { point: KIZILAY, radius: 10000 });
      assert.deepEqual(answer.body['filter'], { lightning: { peakCurrent: 20000 }, thunderstorm: { severityThreshold: 'HIGH' } });
      assert.deepEqual(answer.body['warnings'], []);
      id = answer.body['registrationId'];
    });

    it('gets by id, updates the radius, and lists by recipient id (4.8) with paging', async () => {
      const got = await call('GET', `/v1/alarms/points/get-by-id/${id}`);
      assert.equal(got.status, 200, JSON.stringify(got.body));
      const updated = await call('PUT', '/v1/alarms/points/update', {
        registrationId: id,
        recipientId: 'pt-1',
        boundary: { point: KIZILAY, radius: 2500 },
        webhook: webhook(),
        filter: { precipitation: { intensities: [] } },
      });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.equal(updated.body['boundary']['radius'], 2500);
      assert.deepEqual(updated.body['filter'], { precipitation: { intensities: [] } });
      const second = await call('POST', '/v1/alarms/points/register', {
        recipientId: 'pt-1',
        boundary: { point: { lng: 29.03, lat: 40.99 }, radius: 500 },
        webhook: webhook(),
        filter: {},
      });
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.ok(
        second.body['warnings'].some((w: string) => /never triggers/.test(w)),
        'an empty filter is warned about',
      );
      const listed = await call('GET', '/v1/alarms/points/get-by-recipient-id/pt-1?pageNumber=0&pageSize=1');
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.equal(listed.body['totalRecords'], 2);
      assert.deepEqual(
        listed.body['registrations'].map((r: any) => r.registrationId),
        [id],
      );
      const rest = await call('GET', '/v1/alarms/points/get-by-recipient-id/pt-1?pageNumber=1&pageSize=1');
      assert.deepEqual(
        rest.body['registrations'].map((r: any) => r.registrationId),
        [second.body['registrationId']],
      );
    });

    it('pages by polygon intersection: only circles touching the ring', async () => {
      const near = await call('POST', '/v1/alarms/points/page', {
        pageNumber: 0,
        pageSize: 10,
        filterByPolygonIntersection: ringAround(KIZILAY.lng + 0.04, KIZILAY.lat, 0.015),
      });
      assert.equal(near.status, 200, JSON.stringify(near.body));
      // The ring's west edge lies about 2.1 km east of Kızılay: inside the 2.5 km circle.
      assert.deepEqual(
        near.body['registrations'].map((r: any) => r.registrationId),
        [id],
      );
      const farther = await call('POST', '/v1/alarms/points/page', { filterByPolygonIntersection: ringAround(KIZILAY.lng + 0.06, KIZILAY.lat, 0.015) });
      assert.equal(farther.body['totalRecords'], 0);
      const all = await call('POST', '/v1/alarms/points/page', {});
      assert.equal(all.body['totalRecords'], 2);
    });

    it('unregisters', async () => {
      assert.equal((await call('DELETE', `/v1/alarms/points/unregister/${id}`)).status, 204);
      errorMessage(await call('GET', `/v1/alarms/points/get-by-id/${id}`), 404);
    });
  });
});
