import assert from 'node:assert/strict';
import type { RegistrationDraft } from './draft.js';
import { validateDraft } from './validate-draft.js';

const WEBHOOK = { accountId: '7d1e2c3b-4a5f-4e6d-8c7b-6a5f4e3d2c1b' };

function draft(overrides: Partial<RegistrationDraft>): RegistrationDraft {
  return { kind: 'GEOMETRY', registrationId: '', recipientId: 'r-1', webhook: WEBHOOK, forecastDays: 0, delivery: [], ...overrides };
}

function errorOf(d: RegistrationDraft, mode: 'register' | 'update' = 'register'): { field: string; message: string } {
  const result = validateDraft(d, mode);
  assert.ok(!result.ok, 'expected a validation error');
  assert.equal(result.error.kind, 'validation');
  return result.error as { field: string; message: string };
}

describe('validateDraft', () => {
  it('accepts a geometry alarm and keeps its filter', () => {
    const result = validateDraft(
      draft({
        geometryBoundary: { cityId: 34, districtId: 1421 },
        weatherFilter: {
          lightning: { type: 'FLASH_CLOUD_TO_GROUND', peakCurrentA: -12_500, inCloudHeightM: undefined },
          precipitation: { intensities: ['MODERATE', 'LIGHT', 'LIGHT'] },
        },
      }),
      'register',
    );
    assert.ok(result.ok);
    assert.equal(result.value.kind, 'GEOMETRY');
    if (result.value.kind !== 'GEOMETRY') return;
    assert.deepEqual(result.value.area, { cityId: 34, districtId: 1421 });
    assert.deepEqual(result.value.filter.precipitation, { intensities: ['LIGHT', 'MODERATE'] }, 'deduplicated, in rank order');
    assert.deepEqual(result.value.warnings, []);
  });

  it('names the field of each bad value', () => {
    assert.equal(errorOf(draft({ recipientId: ' ' })).field, 'recipientId');
    assert.equal(errorOf(draft({ recipientId: 'x'.repeat(257) })).field, 'recipientId');
    assert.equal(errorOf(draft({})).field, 'boundary');
    assert.equal(errorOf(draft({ geometryBoundary: { cityId: 0 } })).field, 'boundary.cityId');
    assert.equal(errorOf(draft({ geometryBoundary: { cityId: 6, districtId: -3 } })).field, 'boundary.districtId');
    assert.equal(errorOf(draft({ geometryBoundary: { cityId: 6 }, weatherFilter: { lightning: { type: 'BALL' } } })).field, 'filter.lightning.type');
    assert.equal(
      errorOf(draft({ geometryBoundary: { cityId: 6 }, weatherFilter: { thunderstorm: { severityThreshold: 'SEVERE' } } })).field,
      'filter.thunderstorm.severityThreshold',
    );
    assert.equal(
      errorOf(draft({ geometryBoundary: { cityId: 6 }, weatherFilter: { thunderstorm: { severityThreshold: '', speedThresholdKmh: -1 } } })).field,
      'filter.thunderstorm.speedThreshold',
    );
    assert.equal(
      errorOf(draft({ geometryBoundary: { cityId: 6 }, weatherFilter: { precipitation: { intensities: ['LIGHT', 'SNOW'] } } })).field,
      'filter.precipitation.intensities[1]',
    );
    assert.equal(errorOf(draft({ geometryBoundary: { cityId: 6 }, webhook: { accountId: '' } })).field, 'webhook');
    assert.equal(errorOf(draft({ geometryBoundary: { cityId: 6 }, webhook: { accountId: 'nope' } })).field, 'webhook.accountId');
  });

  it('bounds point alarms: radius in metres and a point in the covered area', () => {
    const point = (lat: number, lng: number, radiusM: number) => draft({ kind: 'POINT', pointBoundary: { point: { lat, lng }, radiusM } });
    assert.ok(validateDraft(point(39.9, 32.85, 100), 'register').ok);
    assert.ok(validateDraft(point(39.9, 32.85, 200_000), 'register').ok);
    assert.match(errorOf(point(39.9, 32.85, 99)).message, /100 to 200000 metres/);
    assert.equal(errorOf(point(39.9, 32.85, 200_001)).field, 'boundary.radius');
    assert.equal(errorOf(point(91, 32.85, 1_000)).field, 'boundary.point.lat');
    assert.match(errorOf(point(48.85, 2.35, 1_000)).message, /outside the area the service covers/);
  });

  it('checks forecast days, deliveries and boundary type', () => {
    const forecast = (overrides: Partial<RegistrationDraft>) =>
      draft({
        kind: 'FORECAST',
        forecastBoundary: { administrative: { cityId: 6, districtId: 1231 } },
        forecastDays: 3,
        delivery: ['MORNING'],
        forecastFilter: { hotTemperatureThreshold: 'HOT_SNAP' },
        ...overrides,
      });
    const good = validateDraft(forecast({ delivery: ['EVENING', 'MORNING', 'EVENING'] }), 'register');
    assert.ok(good.ok && good.value.kind === 'FORECAST');
    if (good.value.kind === 'FORECAST') assert.deepEqual(good.value.delivery, ['MORNING', 'EVENING']);
    assert.equal(errorOf(forecast({ forecastDays: 15 })).field, 'forecastDays');
    assert.equal(errorOf(forecast({ forecastDays: 0 })).field, 'forecastDays');
    assert.equal(errorOf(forecast({ delivery: [] })).field, 'forecastAlarmDelivery');
    assert.equal(errorOf(forecast({ delivery: ['NOON'] })).field, 'forecastAlarmDelivery[0]');
    assert.equal(errorOf(forecast({ forecastBoundary: { administrative: { cityId: 6, districtId: 0 } } })).field, 'boundary.districtId');
    assert.equal(errorOf(forecast({ forecastBoundary: {} })).field, 'boundary');
  });

  it('requires a UUID registrationId to update, and ignores one on register with a warning', () => {
    assert.equal(errorOf(draft({ geometryBoundary: { cityId: 6 } }), 'update').field, 'registrationId');
    assert.equal(errorOf(draft({ geometryBoundary: { cityId: 6 }, registrationId: 'abc' }), 'update').field, 'registrationId');
    const registered = validateDraft(
      draft({ geometryBoundary: { cityId: 6 }, registrationId: '6c3a1f2e-1b2c-4d3e-8f4a-5b6c7d8e9f0a', weatherFilter: { lightning: { type: '' } } }),
      'register',
    );
    assert.ok(registered.ok);
    assert.equal(registered.value.registrationId, '');
    assert.match(registered.value.warnings[0]!, /registrationId is assigned by the service/);
  });

  it('warns about filters that can never work as meant', () => {
    const warningsOf = (weatherFilter: RegistrationDraft['weatherFilter']) => {
      const result = validateDraft(draft({ geometryBoundary: { cityId: 6 }, weatherFilter }), 'register');
      assert.ok(result.ok);
      return result.value.warnings.join('\n');
    };
    assert.match(warningsOf(undefined), /never triggers/);
    assert.match(
      warningsOf({ thunderstorm: { severityThreshold: '', intersectsAffectedPolygon: false, intersectsCellPolygon: false } }),
      /no thunderstorm can match/,
    );
    assert.match(warningsOf({ lightning: { type: '', peakCurrentA: -12.5 } }), /in amperes/);
    assert.match(warningsOf({ lightning: { type: 'FLASH_CLOUD_TO_GROUND', inCloudHeightM: 4_500 } }), /no effect/);
    assert.match(warningsOf({ thunderstorm: { severityThreshold: 'LOW', speedThresholdKmh: 180 } }), /above any observed storm speed/);
    assert.equal(warningsOf({ lightning: { type: '', peakCurrentA: -12_500 } }), '');
  });
});
