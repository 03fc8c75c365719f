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

  describe('the early-warning extension (approach stages, lightning approach ring)', () => {
    const filterOf = (weatherFilter: RegistrationDraft['weatherFilter']) => {
      const result = validateDraft(draft({ geometryBoundary: { cityId: 6 }, weatherFilter }), 'register');
      assert.ok(result.ok, 'expected the filter to be accepted');
      assert.ok(result.value.kind === 'GEOMETRY');
      return { filter: result.value.filter, warnings: result.value.warnings };
    };

    it('keeps the fields at their bounds, with no warning: the ring and the approach stages are acted on', () => {
      const low = filterOf({
        lightning: { type: '', approachRadiusM: 500 },
        thunderstorm: { severityThreshold: 'MEDIUM', approach: { leadMinutes: 5 } },
        precipitation: { intensities: ['HEAVY'], approach: { leadMinutes: 5 } },
      });
      assert.deepEqual(low.filter, {
        lightning: { approachRadiusM: 500 },
        thunderstorm: { severityThreshold: 'MEDIUM', approach: { leadMinutes: 5 } },
        precipitation: { intensities: ['HEAVY'], approach: { leadMinutes: 5 } },
      });
      assert.deepEqual(low.warnings, []);
      assert.deepEqual(
        filterOf({ thunderstorm: { severityThreshold: '', approach: { leadMinutes: 5 } } }).warnings,
        [],
        'an approach stage is acted on: no warning',
      );
      const high = filterOf({
        lightning: { type: '', approachRadiusM: 50_000 },
        thunderstorm: { severityThreshold: '', approach: { leadMinutes: 60 } },
        precipitation: { intensities: [], approach: { leadMinutes: 60 } },
      });
      assert.equal(high.filter.lightning?.approachRadiusM, 50_000);
      assert.deepEqual(high.filter.thunderstorm?.approach, { leadMinutes: 60 });
      assert.deepEqual(high.filter.precipitation?.approach, { leadMinutes: 60 });
    });

    it('leaves them out when not sent (no warning stage, no ring: the contract behaviour)', () => {
      const { filter } = filterOf({
        lightning: { type: '', approachRadiusM: undefined },
        thunderstorm: { severityThreshold: '', approach: undefined },
        precipitation: { intensities: [] },
      });
      assert.deepEqual(filter, { lightning: {}, thunderstorm: {}, precipitation: { intensities: [] } });
      assert.ok(!('approach' in filter.thunderstorm!) && !('approach' in filter.precipitation!) && !('approachRadiusM' in filter.lightning!));
    });

    it('refuses a lead time outside 5 to 60 minutes or not whole, naming the field', () => {
      for (const leadMinutes of [0, 4, 61, 7.5, Number.NaN]) {
        const storm = errorOf(
          draft({ geometryBoundary: { cityId: 6 }, weatherFilter: { thunderstorm: { severityThreshold: '', approach: { leadMinutes } } } }),
        );
        assert.equal(storm.field, 'filter.thunderstorm.approach.leadMinutes', `thunderstorm ${leadMinutes}`);
        assert.equal(storm.message, 'filter.thunderstorm.approach.leadMinutes must be an integer from 5 to 60 minutes');
        const rain = errorOf(draft({ geometryBoundary: { cityId: 6 }, weatherFilter: { precipitation: { intensities: [], approach: { leadMinutes } } } }));
        assert.equal(rain.field, 'filter.precipitation.approach.leadMinutes', `precipitation ${leadMinutes}`);
      }
    });

    it('refuses an approach ring outside 500 to 50000 metres, naming the field', () => {
      for (const approachRadiusM of [499, 50_001, 0, -1_000, Number.POSITIVE_INFINITY]) {
        const error = errorOf(draft({ geometryBoundary: { cityId: 6 }, weatherFilter: { lightning: { type: '', approachRadiusM } } }));
        assert.equal(error.field, 'filter.lightning.approachRadius', String(approachRadiusM));
        assert.equal(error.message, 'filter.lightning.approachRadius must be a number from 500 to 50000 metres');
      }
    });

    it('checks them on point alarms and on update too', () => {
      const point = draft({
        kind: 'POINT',
        registrationId: '6c3a1f2e-1b2c-4d3e-8f4a-5b6c7d8e9f0a',
        pointBoundary: { point: { lat: 39.9, lng: 32.85 }, radiusM: 5_000 },
        weatherFilter: { lightning: { type: '', approachRadiusM: 10_000 }, thunderstorm: { severityThreshold: '', approach: { leadMinutes: 30 } } },
      });
      const updated = validateDraft(point, 'update');
      assert.ok(updated.ok && updated.value.kind === 'POINT');
      assert.equal(updated.value.filter.lightning?.approachRadiusM, 10_000);
      assert.deepEqual(updated.value.filter.thunderstorm?.approach, { leadMinutes: 30 });
      const tooFar = { ...point, weatherFilter: { lightning: { type: '', approachRadiusM: 60_000 } } };
      assert.equal(errorOf(tooFar, 'update').field, 'filter.lightning.approachRadius');
    });
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
