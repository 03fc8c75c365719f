import assert from 'node:assert/strict';
import { alarmV1 } from '@stormhook/proto';
import type { RealtimeRegistration, WeatherFilter } from '../domain/registration.js';
import { geometryRegistration, pointRegistration } from '../test-support/fixtures.js';
import { draftFromProto } from './draft-from-proto.js';
import { registrationFromProto, registrationToProto } from './registration-proto.js';

/** Through the wire form, as the RegistrationChanged broadcast carries it to every matcher instance. */
function overTheWire(registration: RealtimeRegistration) {
  const bytes = alarmV1.AlarmRegistration.encode(registrationToProto(registration));
  return registrationFromProto(alarmV1.AlarmRegistration.decode(bytes));
}

const WITH_EARLY_WARNING: WeatherFilter = {
  lightning: { type: 'FLASH_CLOUD_TO_GROUND', peakCurrentA: 12_000, approachRadiusM: 15_000 },
  thunderstorm: { severityThreshold: 'MEDIUM', speedThresholdKmh: 20, approach: { leadMinutes: 30 } },
  precipitation: { intensities: ['MODERATE', 'HEAVY'], approach: { leadMinutes: 45 } },
};

describe('weather filter over gRPC and the registration broadcast', () => {
  it('reads the approach stages and the lightning approach ring of a request', () => {
    const input = alarmV1.AlarmRegistrationInput.create({
      recipientId: 'r',
      geometryBoundary: { cityId: 6 },
      weatherFilter: {
        lightning: { type: 'LIGHTNING_TYPE_UNSPECIFIED', approachRadiusM: 2_500 },
        thunderstorm: { severityThreshold: 'THUNDERSTORM_SEVERITY_UNSPECIFIED', approach: { leadMinutes: 15 } },
        precipitation: { intensities: [], approach: { leadMinutes: 20 } },
      },
    });
    const filter = draftFromProto('GEOMETRY', input).weatherFilter;
    assert.equal(filter?.lightning?.approachRadiusM, 2_500);
    assert.deepEqual(filter?.thunderstorm?.approach, { leadMinutes: 15 });
    assert.deepEqual(filter?.precipitation?.approach, { leadMinutes: 20 });
  });

  it('keeps an approach stage sent without lead_minutes, so validation refuses it instead of dropping it', () => {
    const input = alarmV1.AlarmRegistrationInput.create({
      weatherFilter: { thunderstorm: { approach: {} }, precipitation: { approach: {} } },
    });
    const filter = draftFromProto('GEOMETRY', input).weatherFilter;
    assert.deepEqual(filter?.thunderstorm?.approach, { leadMinutes: 0 });
    assert.deepEqual(filter?.precipitation?.approach, { leadMinutes: 0 });
  });

  it('leaves them absent in a request without them', () => {
    const input = alarmV1.AlarmRegistrationInput.create({
      weatherFilter: { lightning: {}, thunderstorm: { speedThresholdKmh: 10 }, precipitation: { intensities: ['PRECIPITATION_INTENSITY_LIGHT'] } },
    });
    const filter = draftFromProto('POINT', input).weatherFilter;
    assert.equal(filter?.lightning?.approachRadiusM, undefined);
    assert.equal(filter?.thunderstorm?.approach, undefined);
    assert.equal(filter?.precipitation?.approach, undefined);
  });

  it('answers and broadcasts them: a stored filter comes back whole from the wire form', () => {
    const point = pointRegistration(32.85, 39.92, 5_000, WITH_EARLY_WARNING);
    const proto = registrationToProto(point);
    assert.equal(proto.weatherFilter?.lightning?.approachRadiusM, 15_000);
    assert.deepEqual(proto.weatherFilter?.thunderstorm?.approach, { leadMinutes: 30 });
    assert.deepEqual(proto.weatherFilter?.precipitation?.approach, { leadMinutes: 45 });
    assert.deepEqual(overTheWire(point), point);
    const geometry = geometryRegistration(1231, WITH_EARLY_WARNING);
    assert.deepEqual(overTheWire(geometry), geometry);
  });

  it('broadcasts a filter without them unchanged: no approach member appears', () => {
    const plain = geometryRegistration(1231, {
      lightning: { inCloudHeightM: 4_000 },
      thunderstorm: { intersectsCellPolygon: true },
      precipitation: { intensities: [] },
    });
    const proto = registrationToProto(plain);
    assert.equal(proto.weatherFilter?.thunderstorm?.approach, null);
    assert.equal(proto.weatherFilter?.precipitation?.approach, null);
    assert.deepEqual(overTheWire(plain), plain);
  });
});
