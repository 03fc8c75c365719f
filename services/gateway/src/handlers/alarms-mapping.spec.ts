import assert from 'node:assert/strict';
import { alarmV1, notificationV1 } from '@stormhook/proto';
import { listRequest, recipientPage, registrationInput, type KindRegistration } from './alarms-input.js';
import { pageJson, registrationJson, slotJson } from './alarms-json.js';

const ACCOUNT = '0b7e4c1d-2a3f-4e5d-9c8b-7a6f5e4d3c2b';
const PRINCIPAL = { userId: 'u1', accountId: ACCOUNT, role: 'API_USER', username: 'a@example.com', via: 'access-token' };

type PointRegistration = Extract<KindRegistration, { kind: 'points' }>['body'];

const weatherFilter: PointRegistration['filter'] = {
  lightning: { type: 'FLASH_IN_CLOUD', peakCurrent: -12_500, inCloudHeight: 4_500 },
  thunderstorm: { intersectsCellPolygon: true, severityThreshold: 'MEDIUM', speedThreshold: 20 },
  precipitation: { intensities: ['LIGHT', 'VERY_HEAVY'] },
};

describe('alarm registration mapping (public JSON <-> alarm-matcher messages)', () => {
  it('maps a point registration: radius to radius_m, units into the proto names, enums prefixed', () => {
    const body: PointRegistration = {
      recipientId: 'r',
      boundary: { point: { lng: 32.85, lat: 39.92 }, radius: 10_000 },
      webhook: { accountId: ACCOUNT },
      filter: weatherFilter,
    };
    const input = registrationInput({ kind: 'points', body }, undefined);
    assert.deepEqual(input.pointBoundary, { point: { lng: 32.85, lat: 39.92 }, radiusM: 10_000 });
    assert.equal(input.geometryBoundary, undefined);
    assert.deepEqual(input.webhook, { accountId: ACCOUNT, config: null });
    assert.deepEqual(input.weatherFilter?.lightning, { type: 'LIGHTNING_TYPE_FLASH_IN_CLOUD', peakCurrentAmperes: -12_500, inCloudHeightM: 4_500 });
    assert.deepEqual(input.weatherFilter?.thunderstorm, {
      intersectsCellPolygon: true,
      severityThreshold: 'THUNDERSTORM_SEVERITY_MEDIUM',
      speedThresholdKmh: 20,
      approach: null, // no early-warning stage asked for: the message is absent
    });
    assert.deepEqual(input.weatherFilter?.precipitation?.intensities, ['PRECIPITATION_INTENSITY_LIGHT', 'PRECIPITATION_INTENSITY_VERY_HEAVY']);
  });

  it('maps the early-warning fields (an extension beyond the contract) into the proto names, and back in answers', () => {
    const filter: PointRegistration['filter'] = {
      lightning: { approachRadius: 12_000 },
      thunderstorm: { severityThreshold: 'HIGH', approach: { leadMinutes: 15 } },
      precipitation: { intensities: ['HEAVY'], approach: { leadMinutes: 40 } },
    };
    const body: PointRegistration = {
      recipientId: 'r',
      boundary: { point: { lng: 32.85, lat: 39.92 }, radius: 1_000 },
      webhook: { accountId: ACCOUNT },
      filter,
    };
    const input = registrationInput({ kind: 'points', body }, undefined);
    assert.deepEqual(input.weatherFilter?.lightning, { type: 'LIGHTNING_TYPE_UNSPECIFIED', approachRadiusM: 12_000 });
    assert.deepEqual(input.weatherFilter?.thunderstorm, { severityThreshold: 'THUNDERSTORM_SEVERITY_HIGH', approach: { leadMinutes: 15 } });
    assert.deepEqual(input.weatherFilter?.precipitation, { intensities: ['PRECIPITATION_INTENSITY_HEAVY'], approach: { leadMinutes: 40 } });
    // What the matcher answers for it comes back in the request's own shape.
    const stored = alarmV1.AlarmRegistration.create({ kind: 'REGISTRATION_KIND_POINT', pointBoundary: body.boundary, weatherFilter: input.weatherFilter });
    assert.deepEqual(registrationJson('points', stored, stored.accountId).filter, filter);
  });

  it('keeps absent filter members and fields absent (an absent member never triggers)', () => {
    const input = registrationInput(
      { kind: 'geometries', body: { recipientId: 'r', boundary: { cityId: 6 }, webhook: { accountId: ACCOUNT }, filter: { lightning: {} } } },
      undefined,
    );
    assert.deepEqual(input.geometryBoundary, { cityId: 6 });
    assert.deepEqual(input.weatherFilter?.lightning, { type: 'LIGHTNING_TYPE_UNSPECIFIED' });
    assert.equal(input.weatherFilter?.thunderstorm, null);
    assert.equal(input.weatherFilter?.precipitation, null);
    const withoutStages = registrationInput(
      {
        kind: 'geometries',
        body: {
          recipientId: 'r',
          boundary: { cityId: 6 },
          webhook: { accountId: ACCOUNT },
          filter: { thunderstorm: { speedThreshold: 10 }, precipitation: { intensities: ['LIGHT'] } },
        },
      },
      undefined,
    );
    assert.equal(withoutStages.weatherFilter?.thunderstorm?.approach, null, 'no warning stage unless asked for');
    assert.equal(withoutStages.weatherFilter?.precipitation?.approach, null);
    assert.equal(input.weatherFilter?.lightning?.approachRadiusM, undefined, 'no approach ring unless asked for');
  });

  it('maps forecast boundaries to the administrative / point oneof and deliveries to their enum', () => {
    const config = notificationV1.WebhookEndpointConfig.create({ url: 'https://example.com/hook' });
    const admin = registrationInput(
      {
        kind: 'forecasts',
        body: {
          recipientId: 'r',
          boundary: { type: 'ADMINISTRATIVE', cityId: 6, districtId: 1231 },
          webhook: { url: 'https://example.com/hook' },
          filter: { windGustThreshold: 'GALE' },
          forecastDays: 5,
          forecastAlarmDelivery: ['EVENING'],
        },
      },
      config,
    );
    assert.deepEqual(admin.forecastBoundary, { administrative: { cityId: 6, districtId: 1231 } });
    assert.equal(admin.forecastFilter?.windGustThreshold, 'GALE');
    assert.equal(admin.forecastFilter?.precipitationThreshold, '');
    assert.deepEqual(admin.forecastAlarmDelivery, ['FORECAST_DELIVERY_EVENING']);
    assert.equal(admin.webhook?.config?.url, 'https://example.com/hook');
    const point = registrationInput(
      {
        kind: 'forecasts',
        body: {
          recipientId: 'r',
          boundary: { type: 'POINT', point: { lng: 30, lat: 40 } },
          webhook: { accountId: ACCOUNT },
          filter: {},
          forecastDays: 1,
          forecastAlarmDelivery: ['MORNING'],
        },
      },
      undefined,
    );
    assert.deepEqual(point.forecastBoundary, { point: { lng: 30, lat: 40 } });
  });

  it('answers the public shape: ISO times, units renamed back, no authentication.type, masked password', () => {
    const stored = alarmV1.AlarmRegistration.create({
      registrationId: 'r1',
      accountId: ACCOUNT,
      kind: 'REGISTRATION_KIND_POINT',
      recipientId: 'rcp',
      pointBoundary: { point: { lng: 32.85, lat: 39.92 }, radiusM: 2_500 },
      webhook: {
        accountId: ACCOUNT,
        config: { url: 'https://example.com/hook', authentication: { type: 'WEBHOOK_AUTH_TYPE_BASIC', username: 'ops', password: 'leaked?' } },
      },
      weatherFilter: {
        lightning: { type: 'LIGHTNING_TYPE_UNSPECIFIED', peakCurrentAmperes: 20_000 },
        thunderstorm: { severityThreshold: 'THUNDERSTORM_SEVERITY_HIGH', speedThresholdKmh: 30 },
      },
      createdAtEpochMs: Date.UTC(2026, 0, 2, 3, 4, 5, 6),
      updatedAtEpochMs: Date.UTC(2026, 0, 2, 3, 4, 5, 7),
      warnings: ['w'],
    });
    const json = registrationJson('points', stored, stored.accountId);
    assert.deepEqual(json.boundary, { point: { lng: 32.85, lat: 39.92 }, radius: 2_500 });
    assert.deepEqual(json.filter, { lightning: { peakCurrent: 20_000 }, thunderstorm: { severityThreshold: 'HIGH', speedThreshold: 30 } });
    assert.equal(json.createdAt, '2026-01-02T03:04:05.006Z');
    assert.equal(json.updatedAt, '2026-01-02T03:04:05.007Z');
    assert.deepEqual(json.webhook.authentication, { username: 'ops', password: '******' });
    assert.deepEqual(json.warnings, ['w']);
    assert.equal(json['forecastDays'], undefined, 'forecast fields only on forecast alarms');
    assert.equal('suspended' in json, false, 'no suspended member while entitled: the contract shape unchanged');
    const suspended = registrationJson('points', { ...stored, suspended: { reason: 'USER_BLOCKED', sinceEpochMs: 1_764_302_400_000 } }, stored.accountId);
    assert.deepEqual(suspended.suspended, { reason: 'USER_BLOCKED', since: 1_764_302_400_000 });
    const page = pageJson(
      'points',
      alarmV1.ListAlarmsResponse.create({ registrations: [stored], page: { pageNumber: 2, pageSize: 1, totalRecords: 3 } }),
      stored.accountId,
    );
    assert.deepEqual({ ...page, registrations: undefined }, { registrations: undefined, totalRecords: 3, pageNumber: 2, pageSize: 1 });
  });

  it('answers forecast extras: deliveries without prefix, the resolved district and grid cell', () => {
    const stored = alarmV1.AlarmRegistration.create({
      kind: 'REGISTRATION_KIND_FORECAST',
      forecastBoundary: { point: { lng: 32.85, lat: 39.92 } },
      forecastFilter: { hotTemperatureThreshold: 'HOT_SNAP' },
      forecastDays: 3,
      forecastAlarmDelivery: ['FORECAST_DELIVERY_MORNING'],
      resolvedAdministrativeBoundary: { cityId: 6, cityName: 'Ankara', districtId: 1231, districtName: 'Çankaya' },
      resolvedForecastCell: { cellId: 'c1', location: { lng: 32.8, lat: 39.9 }, distanceM: 4_800 },
    });
    const json = registrationJson('forecasts', stored, stored.accountId);
    assert.deepEqual(json.boundary, { type: 'POINT', point: { lng: 32.85, lat: 39.92 } });
    assert.deepEqual(json.filter, { hotTemperatureThreshold: 'HOT_SNAP' });
    assert.deepEqual(json['forecastAlarmDelivery'], ['MORNING']);
    assert.deepEqual(json['resolvedForecastCell'], { cellId: 'c1', location: { lng: 32.8, lat: 39.9 }, distance: 4_800 });
  });

  it('builds list requests: paging defaults, filters per kind', () => {
    const points = listRequest(
      {
        kind: 'points',
        body: {
          filterByPolygonIntersection: [
            [30, 40],
            [31, 40],
            [31, 41],
            [30, 40],
          ],
        },
      },
      PRINCIPAL,
    );
    assert.deepEqual(points.page, { pageNumber: 0, pageSize: 20 });
    assert.equal(points.kind, 'REGISTRATION_KIND_POINT');
    assert.equal(points.principal?.accountId, ACCOUNT);
    assert.deepEqual(points.polygonIntersection?.points[1], { lng: 31, lat: 40 });
    const forecasts = listRequest(
      { kind: 'forecasts', body: { pageNumber: 1, pageSize: 5, filterByRecipientIds: ['a'], filterByBoundary: { type: 'POINT', point: { lng: 1, lat: 2 } } } },
      PRINCIPAL,
    );
    assert.deepEqual(forecasts.forecastBoundary, { point: { lng: 1, lat: 2 } });
    assert.deepEqual(forecasts.recipientIds, ['a']);
    assert.deepEqual(recipientPage({ pageSize: 3 }), { pageNumber: 0, pageSize: 3 });
    assert.deepEqual(slotJson(alarmV1.RunForecastSlotResponse.create({ slotId: 's', evaluated: true })), {
      slotId: 's',
      evaluated: true,
      late: false,
      registrations: 0,
      notifications: 0,
      forecastRunId: null,
    });
  });
});
