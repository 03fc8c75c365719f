import assert from 'node:assert/strict';
import { createClient, GrpcError, GrpcStatus, httpStatusOfError, testInternalTokens, untrustedTokens } from '@stormhook/grpc';
import { alarmV1, type DeepPartial } from '@stormhook/proto';
import { ACCOUNT_A, ACCOUNT_B, FULL_WEBHOOK, principal, startHarness, type Harness } from '../test-support/harness.js';

const GEOMETRY = 'REGISTRATION_KIND_GEOMETRY' as const;
const FORECAST = 'REGISTRATION_KIND_FORECAST' as const;
const POINT = 'REGISTRATION_KIND_POINT' as const;

async function failure(call: Promise<unknown>): Promise<GrpcError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof GrpcError, `expected a GrpcError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('alarm registrations over gRPC (real Kafka and database, fake geo and notifier)', function () {
  this.timeout(60_000);
  let h: Harness;
  const a = principal(ACCOUNT_A);
  const b = principal(ACCOUNT_B);
  const admin = principal('0c0c0c0c-3333-4333-8333-0c0c0c0c0c0c', 'ADMIN');

  const geometry = (
    recipientId: string,
    boundary: DeepPartial<alarmV1.GeometryBoundary>,
    webhook: DeepPartial<alarmV1.RegistrationWebhook> = { accountId: ACCOUNT_A },
  ) => ({
    recipientId,
    geometryBoundary: boundary,
    webhook,
    weatherFilter: {
      lightning: { type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND' as const, peakCurrentAmperes: -12_500 },
      precipitation: { intensities: ['PRECIPITATION_INTENSITY_LIGHT' as const, 'PRECIPITATION_INTENSITY_MODERATE' as const] },
    },
  });

  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.stop();
  });

  describe('webhook rules (contract section 3)', () => {
    it('refuses a later-style registration before any webhook is stored', async () => {
      const error = await failure(h.client.registerAlarm({ principal: a, kind: GEOMETRY, registration: geometry('r-0', { cityId: 6 }) }));
      assert.equal(error.code, GrpcStatus.FAILED_PRECONDITION);
      assert.equal(error.detail?.reason, 'WEBHOOK_NOT_FOUND');
      assert.equal(httpStatusOfError(error), 400);
    });

    it('passes on the notifier refusing the webhook, naming its field', async () => {
      const error = await failure(
        h.client.registerAlarm({
          principal: a,
          kind: GEOMETRY,
          registration: geometry('r-0', { cityId: 6 }, { config: { ...FULL_WEBHOOK, url: 'http://plain.example.com' } }),
        }),
      );
      assert.equal(error.code, GrpcStatus.INVALID_ARGUMENT);
      assert.equal(error.detail?.metadata['field'], 'webhook.url');
      assert.equal(h.notifier.endpoints.size, 0);
    });

    it('stores the full webhook of the first registration and answers it masked', async () => {
      const saved = await h.client.registerAlarm({
        principal: a,
        kind: GEOMETRY,
        registration: geometry('r-1', { cityId: 6, districtId: 1231 }, { config: FULL_WEBHOOK }),
      });
      assert.equal(h.notifier.endpoints.get(ACCOUNT_A)?.url, 'https://hooks.example.com/alarms');
      assert.equal(saved.webhook?.accountId, ACCOUNT_A);
      assert.equal(saved.webhook?.config?.authentication?.password, '******');
      assert.equal(saved.accountId, ACCOUNT_A);
      assert.equal(saved.kind, GEOMETRY);
      assert.ok(saved.createdAtEpochMs > 0 && saved.updatedAtEpochMs === saved.createdAtEpochMs);
      assert.equal(saved.version, 1);
      assert.deepEqual(saved.geometryBoundary, { cityId: 6, districtId: 1231 });
      assert.equal(saved.weatherFilter?.lightning?.peakCurrentAmperes, -12_500);
    });

    it('reuses the stored webhook for a later registration sending only accountId', async () => {
      const saved = await h.client.registerAlarm({ principal: a, kind: GEOMETRY, registration: geometry('r-2', { cityId: 6 }) });
      assert.equal(saved.webhook?.config?.url, 'https://hooks.example.com/alarms');
      assert.deepEqual(saved.warnings, []);
    });

    it("refuses another account's id", async () => {
      const error = await failure(
        h.client.registerAlarm({ principal: b, kind: GEOMETRY, registration: geometry('r-3', { cityId: 6 }, { accountId: ACCOUNT_A }) }),
      );
      assert.equal(error.detail?.reason, 'WEBHOOK_ACCOUNT_MISMATCH');
      assert.equal(httpStatusOfError(error), 400);
    });

    it('refuses a full webhook that differs from the stored one, pointing to the update operation', async () => {
      const error = await failure(
        h.client.registerAlarm({
          principal: a,
          kind: GEOMETRY,
          registration: geometry('r-4', { cityId: 6 }, { config: { ...FULL_WEBHOOK, url: 'https://elsewhere.example.com/x' } }),
        }),
      );
      assert.equal(error.code, GrpcStatus.ALREADY_EXISTS);
      assert.equal(error.detail?.reason, 'WEBHOOK_DIFFERS');
      assert.equal(httpStatusOfError(error), 409);
      assert.match(error.message, /PUT \/v1\/alarms\/webhooks\/update/);
      assert.equal(h.notifier.endpoints.get(ACCOUNT_A)?.url, 'https://hooks.example.com/alarms', 'stored webhook unchanged');
    });

    it('accepts the same full webhook again, with a warning about the password', async () => {
      const saved = await h.client.registerAlarm({ principal: a, kind: GEOMETRY, registration: geometry('r-5', { cityId: 6 }, { config: FULL_WEBHOOK }) });
      assert.match(saved.warnings.join(' '), /password is stored encrypted and was not compared/);
    });
  });

  describe('validation against geo', () => {
    it('names unknown ids and a district outside its city', async () => {
      const cases: Array<[DeepPartial<alarmV1.GeometryBoundary>, string, RegExp]> = [
        [{ cityId: 99 }, 'boundary.cityId', /not a known city id: 99/],
        [{ cityId: 6, districtId: 9999 }, 'boundary.districtId', /not a known district/],
        [{ cityId: 6, districtId: 1421 }, 'boundary.districtId', /not a district of city 6 \(Ankara\); it lies in İstanbul \(34\)/],
        [{ cityId: 34, districtId: 1421, neighborhoodId: 5 }, 'boundary.neighborhoodId', /not a known neighbourhood/],
        [{ cityId: 6, neighborhoodId: 101 }, 'boundary.neighborhoodId', /not in city 6/],
      ];
      for (const [boundary, field, message] of cases) {
        const error = await failure(h.client.registerAlarm({ principal: a, kind: GEOMETRY, registration: geometry('r-v', boundary) }));
        assert.equal(error.code, GrpcStatus.INVALID_ARGUMENT, JSON.stringify(boundary));
        assert.equal(error.detail?.metadata['field'], field);
        assert.match(error.message, message);
      }
    });

    it('accepts a neighbourhood of its district and city', async () => {
      const saved = await h.client.registerAlarm({
        principal: a,
        kind: GEOMETRY,
        registration: geometry('r-n', { cityId: 34, districtId: 1421, neighborhoodId: 101 }),
      });
      assert.equal(saved.geometryBoundary?.neighborhoodId, 101);
    });

    it('answers 503 when geo is down', async () => {
      h.geo.up = false;
      try {
        const error = await failure(h.client.registerAlarm({ principal: a, kind: GEOMETRY, registration: geometry('r-down', { cityId: 6 }) }));
        assert.equal(error.code, GrpcStatus.UNAVAILABLE);
        assert.equal(httpStatusOfError(error), 503);
      } finally {
        h.geo.up = true;
      }
    });
  });

  describe('uniqueness, ownership, reads and removal', () => {
    let first: alarmV1.AlarmRegistration;

    before(async () => {
      first = await h.client.registerAlarm({ principal: a, kind: GEOMETRY, registration: geometry('own-1', { cityId: 34, districtId: 1421 }) });
    });

    it('allows one registration per area per recipientId', async () => {
      const error = await failure(h.client.registerAlarm({ principal: a, kind: GEOMETRY, registration: geometry('own-1', { cityId: 34, districtId: 1421 }) }));
      assert.equal(error.detail?.reason, 'REGISTRATION_EXISTS');
      assert.match(error.message, new RegExp(first.registrationId));
      // Same area, another recipient; and the same recipient on another area: both fine.
      await h.client.registerAlarm({ principal: a, kind: GEOMETRY, registration: geometry('own-2', { cityId: 34, districtId: 1421 }) });
      await h.client.registerAlarm({ principal: a, kind: GEOMETRY, registration: geometry('own-1', { cityId: 34 }) });
    });

    it("hides another account's registration and shows every one to ADMIN", async () => {
      const foreign = await failure(h.client.getAlarm({ principal: b, kind: GEOMETRY, registrationId: first.registrationId }));
      assert.equal(foreign.code, GrpcStatus.NOT_FOUND);
      assert.equal(httpStatusOfError(foreign), 404);
      const wrongKind = await failure(h.client.getAlarm({ principal: a, kind: POINT, registrationId: first.registrationId }));
      assert.equal(wrongKind.code, GrpcStatus.NOT_FOUND);
      const seen = await h.client.getAlarm({ principal: admin, kind: GEOMETRY, registrationId: first.registrationId });
      assert.equal(seen.recipientId, 'own-1');
      assert.equal(seen.webhook?.config?.url, 'https://hooks.example.com/alarms');
    });

    it('updates the whole registration, keeping its identity', async () => {
      const updated = await h.client.updateAlarm({
        principal: a,
        kind: GEOMETRY,
        registration: { ...geometry('own-1b', { cityId: 34, districtId: 1421 }), registrationId: first.registrationId },
      });
      assert.equal(updated.registrationId, first.registrationId);
      assert.equal(updated.recipientId, 'own-1b');
      assert.equal(updated.version, 2);
      assert.equal(updated.createdAtEpochMs, first.createdAtEpochMs);
      assert.ok(updated.updatedAtEpochMs >= first.updatedAtEpochMs);
      const foreign = await failure(
        h.client.updateAlarm({
          principal: b,
          kind: GEOMETRY,
          registration: { ...geometry('x', { cityId: 6 }, { accountId: ACCOUNT_B }), registrationId: first.registrationId },
        }),
      );
      assert.equal(foreign.code, GrpcStatus.NOT_FOUND);
      const missingId = await failure(h.client.updateAlarm({ principal: a, kind: GEOMETRY, registration: geometry('x', { cityId: 6 }) }));
      assert.equal(missingId.detail?.metadata['field'], 'registrationId');
    });

    it('lists with paging and filters; accountId only for ADMIN and POWER_USER', async () => {
      const all = await h.client.listAlarms({ principal: a, kind: GEOMETRY, page: { pageNumber: 0, pageSize: 100 } });
      assert.ok(all.registrations.every((r) => r.accountId === ACCOUNT_A));
      const total = all.page?.totalRecords ?? 0;
      assert.equal(all.registrations.length, total);
      const second = await h.client.listAlarms({ principal: a, kind: GEOMETRY, page: { pageNumber: 1, pageSize: 2 } });
      assert.deepEqual(
        second.registrations.map((r) => r.registrationId),
        all.registrations.slice(2, 4).map((r) => r.registrationId),
      );
      assert.equal(second.page?.totalRecords, total);
      const byRecipient = await h.client.listAlarms({ principal: a, kind: GEOMETRY, page: { pageNumber: 0, pageSize: 10 }, recipientIds: ['own-2', 'own-1b'] });
      assert.deepEqual(byRecipient.registrations.map((r) => r.recipientId).sort(), ['own-1b', 'own-2']);
      const byArea = await h.client.listAlarms({
        principal: a,
        kind: GEOMETRY,
        page: { pageNumber: 0, pageSize: 10 },
        geometryBoundary: { cityId: 34, districtId: 1421 },
      });
      assert.deepEqual(byArea.registrations.map((r) => r.recipientId).sort(), ['own-1b', 'own-2']);
      const denied = await failure(h.client.listAlarms({ principal: b, kind: GEOMETRY, page: { pageNumber: 0, pageSize: 10 }, accountId: ACCOUNT_A }));
      assert.equal(httpStatusOfError(denied), 403);
      const power = await h.client.listAlarms({
        principal: principal(ACCOUNT_B, 'POWER_USER'),
        kind: GEOMETRY,
        page: { pageNumber: 0, pageSize: 100 },
        accountId: ACCOUNT_A,
      });
      assert.equal(power.page?.totalRecords, total);
      const ownEmpty = await h.client.listAlarms({ principal: b, kind: GEOMETRY, page: { pageNumber: 0, pageSize: 10 } });
      assert.equal(ownEmpty.page?.totalRecords, 0);
      const badSize = await failure(h.client.listAlarms({ principal: a, kind: GEOMETRY, page: { pageNumber: 0, pageSize: 101 } }));
      assert.equal(badSize.detail?.metadata['field'], 'pageSize');
    });

    it('unregisters, after which the registration is gone', async () => {
      const removed = await h.client.unregisterAlarm({ principal: a, kind: GEOMETRY, registrationId: first.registrationId });
      assert.equal(removed.registrationId, first.registrationId);
      assert.equal((await failure(h.client.getAlarm({ principal: a, kind: GEOMETRY, registrationId: first.registrationId }))).code, GrpcStatus.NOT_FOUND);
      assert.equal(
        (await failure(h.client.unregisterAlarm({ principal: a, kind: GEOMETRY, registrationId: first.registrationId }))).code,
        GrpcStatus.NOT_FOUND,
      );
    });
  });

  describe('forecast and point alarms', () => {
    it('resolves a POINT forecast boundary to its district', async () => {
      const saved = await h.client.registerAlarm({
        principal: a,
        kind: FORECAST,
        registration: {
          recipientId: 'f-1',
          forecastBoundary: { point: { lng: 32.8, lat: 39.9 } },
          webhook: { accountId: ACCOUNT_A },
          forecastFilter: { precipitationThreshold: 'MODERATE', windGustThreshold: 'STRONG_WIND' },
          forecastDays: 3,
          forecastAlarmDelivery: ['FORECAST_DELIVERY_MORNING'],
        },
      });
      assert.deepEqual(saved.resolvedAdministrativeBoundary, { cityId: 6, cityName: 'Ankara', districtId: 1231, districtName: 'Çankaya' });
      assert.match(saved.warnings.join(' '), /no forecast grid cell is stored near boundary.point yet/);
      const got = await h.client.getAlarm({ principal: a, kind: FORECAST, registrationId: saved.registrationId });
      assert.deepEqual(got.forecastFilter, {
        precipitationThreshold: 'MODERATE',
        snowFallThreshold: '',
        windGustThreshold: 'STRONG_WIND',
        hotTemperatureThreshold: '',
        coldTemperatureThreshold: '',
      });
      assert.deepEqual(got.forecastAlarmDelivery, ['FORECAST_DELIVERY_MORNING']);
      assert.equal(got.forecastDays, 3);
    });

    it('refuses unknown thresholds and a point outside every district', async () => {
      const base = { recipientId: 'f-2', webhook: { accountId: ACCOUNT_A }, forecastDays: 2, forecastAlarmDelivery: ['FORECAST_DELIVERY_EVENING' as const] };
      const unknown = await failure(
        h.client.registerAlarm({
          principal: a,
          kind: FORECAST,
          registration: { ...base, forecastBoundary: { administrative: { cityId: 6, districtId: 1231 } }, forecastFilter: { windGustThreshold: 'BREEZE' } },
        }),
      );
      assert.equal(unknown.detail?.metadata['field'], 'filter.windGustThreshold');
      const outside = await failure(
        h.client.registerAlarm({
          principal: a,
          kind: FORECAST,
          registration: { ...base, forecastBoundary: { point: { lng: 35, lat: 37 } }, forecastFilter: { windGustThreshold: 'GALE' } },
        }),
      );
      assert.equal(outside.detail?.metadata['field'], 'boundary.point');
    });

    it('registers point alarms and lists them by recipient and by polygon', async () => {
      const register = (recipientId: string, lng: number, lat: number) =>
        h.client.registerAlarm({
          principal: a,
          kind: POINT,
          registration: {
            recipientId,
            pointBoundary: { point: { lng, lat }, radiusM: 5_000 },
            webhook: { accountId: ACCOUNT_A },
            weatherFilter: { lightning: {} },
          },
        });
      await register('p-1', 32.85, 39.92);
      await register('p-1', 29.05, 41.0);
      await register('p-2', 29.05, 41.0);
      const first = await h.client.listAlarmsByRecipient({ principal: a, kind: POINT, recipientId: 'p-1', page: { pageNumber: 0, pageSize: 1 } });
      assert.equal(first.page?.totalRecords, 2);
      assert.equal(first.registrations.length, 1);
      const defaults = await h.client.listAlarmsByRecipient({ principal: a, kind: POINT, recipientId: 'p-1' });
      assert.equal(defaults.page?.pageSize, 20);
      const ring = [
        [28.9, 40.9],
        [29.2, 40.9],
        [29.2, 41.1],
        [28.9, 41.1],
        [28.9, 40.9],
      ].map(([lng, lat]) => ({ lng: lng!, lat: lat! }));
      const touching = await h.client.listAlarms({ principal: a, kind: POINT, page: { pageNumber: 0, pageSize: 10 }, polygonIntersection: { points: ring } });
      assert.deepEqual(touching.registrations.map((r) => r.recipientId).sort(), ['p-1', 'p-2']);
      const dup = await failure(register('p-2', 29.05, 41.0));
      assert.equal(dup.detail?.reason, 'REGISTRATION_EXISTS');
    });

    it('publishes the forecast threshold table', async () => {
      const table = await h.client.listForecastThresholds({});
      const gust = table.thresholds.find((t) => t.name === 'STRONG_WIND');
      assert.deepEqual(gust && { field: gust.filterField, unit: gust.unit, value: gust.value, comparison: gust.comparison }, {
        field: 'windGustThreshold',
        unit: 'km/h',
        value: 50,
        comparison: '>=',
      });
    });
  });

  it('requires a caller and an account', async () => {
    assert.equal((await failure(h.client.listAlarms({ kind: GEOMETRY, page: { pageNumber: 0, pageSize: 1 } }))).code, GrpcStatus.UNAUTHENTICATED);
    const noAccount = await failure(h.client.registerAlarm({ principal: { ...a, accountId: '' }, kind: GEOMETRY, registration: geometry('z', { cityId: 6 }) }));
    assert.equal(noAccount.detail?.reason, 'ACCOUNT_REQUIRED');
  });

  it('refuses calls without a valid internal token, and a request naming another caller than its token', async () => {
    const address = `127.0.0.1:${h.matchers[0]!.port}`;
    const list = alarmV1.ListAlarmsRequest.create({ principal: a, kind: GEOMETRY, page: { pageNumber: 0, pageSize: 1 } });
    for (const [what, internalToken] of Object.entries(untrustedTokens('alarm-matcher'))) {
      const untrusted = createClient(alarmV1.AlarmMatcherService, address, internalToken ? { internalToken } : {});
      const error = await failure(untrusted.listAlarms(list));
      untrusted.close();
      assert.equal(error.code, GrpcStatus.UNAUTHENTICATED, what);
    }
    const tokens = testInternalTokens();
    const asB = createClient(alarmV1.AlarmMatcherService, address, { internalToken: () => tokens.forPrincipal('alarm-matcher', b) });
    const forged = await failure(asB.listAlarms(list));
    // A service's own token carries no customer: it cannot act on registrations.
    const serviceOnly = createClient(alarmV1.AlarmMatcherService, address, { internalToken: tokens.serviceTokenFor('alarm-matcher') });
    const unvouched = await failure(serviceOnly.listAlarms(list));
    asB.close();
    serviceOnly.close();
    assert.equal(forged.code, GrpcStatus.PERMISSION_DENIED);
    assert.equal(unvouched.code, GrpcStatus.UNAUTHENTICATED);
  });
});
