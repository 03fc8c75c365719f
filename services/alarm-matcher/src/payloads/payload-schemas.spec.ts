import assert from 'node:assert/strict';
import { bboxOfMultiPolygon } from '@stormhook/geometry';
import { square } from '@stormhook/geometry/testing';
import { payloadProblems, WEBHOOK_EVENT_TYPES } from '@stormhook/webhooks';
import type { ForecastRegistration } from '../domain/registration.js';
import { slotOn } from '../forecast/slots.js';
import { PreparedCircle } from '../geometry/prepared-circle.js';
import type { Motion } from '../motion/motion.js';
import { EventProjection } from '../motion/projection.js';
import { rain, storm, strike } from '../test-support/fixtures.js';
import { forecastPayload } from '../forecast/forecast-payload.js';
import { lightningAllClearPayload, lightningApproachingPayload, lightningPayload } from './lightning-payload.js';
import { precipitationPayload } from './precipitation-payload.js';
import { thunderstormPayload } from './thunderstorm-payload.js';

const who = { notificationId: 'ntf_1', registrationId: 'reg-1', recipientId: 'mast-7' };
const reference: [number, number] = [32.85, 39.92];

const registration: ForecastRegistration = {
  registrationId: 'reg-f',
  accountId: 'acc',
  recipientId: 'farm-1',
  createdAtMs: 0,
  updatedAtMs: 0,
  version: 1,
  warnings: [],
  kind: 'FORECAST',
  boundary: { type: 'ADMINISTRATIVE', cityId: 6, districtId: 1231 },
  filter: { windGustThreshold: 'STRONG_WIND' },
  forecastDays: 1,
  delivery: ['MORNING'],
  resolved: { cityId: 6, cityName: 'Ankara', districtId: 1231, districtName: 'Çankaya' },
};

const PHASES = ['START', 'UPDATE', 'END', 'APPROACHING', 'APPROACH_CANCELLED'] as const;
const MOTION: Motion = { speedKmh: 30, towardDeg: 45, source: 'FEED', trackAgeMin: 10, trackPoints: 3, quality: 0.8 };

/** Every payload the matcher builds, one per event type it raises, from the builders it really uses. */
function builtPayloads(): Array<Record<string, unknown>> {
  const cell = square(32.8, 39.9, 0.1);
  const area = square(32.7, 39.8, 0.3);
  const day = Date.UTC(2030, 0, 15);
  return [
    lightningPayload({ ...who, strike: strike(32.86, 39.93, { inCloudHeightM: 7_000, type: 'FLASH_IN_CLOUD' }), distanceM: 1_234.5678 }),
    lightningPayload({ ...who, strike: strike(32.86, 39.93), distanceM: 10 }),
    lightningApproachingPayload({
      ...who,
      strike: strike(32.95, 39.93),
      notice: { episodeFirstMs: day - 60_000, nearestM: 4_321.123, distanceM: 4_321.123, closing: true, strikes: 2 },
      approachRadiusM: 10_000,
    }),
    lightningAllClearPayload({ ...who, activity: { registrationId: 'reg-1', firstStrikeMs: day, lastStrikeMs: day + 60_000 }, quietMs: 30 * 60_000 }),
    ...PHASES.map((phase) => {
      const cellStorm = storm(cell, phase === 'UPDATE' ? [] : area);
      const projection = new EventProjection(cellStorm.observedMs, cell, bboxOfMultiPolygon(cell), MOTION);
      const ahead = phase === 'START' || phase === 'UPDATE' || phase === 'APPROACHING';
      return thunderstormPayload({
        ...who,
        storm: cellStorm,
        reference,
        phase,
        ...(phase === 'END' ? { endReason: 'LEFT_AREA' as const } : {}),
        ...(phase === 'APPROACH_CANCELLED' ? { cancelReason: 'NO_LONGER_PREDICTED' as const } : {}),
        entryMs: cellStorm.observedMs + 600_000,
        exitMs: cellStorm.observedMs + 1_800_000,
        // APPROACHING: an alarm north-east of the cell, in its path; the others: an alarm the cell covers.
        eta: ahead
          ? (projection.etaFor('ahead', new PreparedCircle(phase === 'APPROACHING' ? [33.05, 40.1] : [32.85, 39.95], 3_000), phase !== 'APPROACHING') ?? null)
          : null,
      });
    }),
    ...PHASES.map((phase) => {
      const r = rain(area, { motion: { speedKmh: 30, directionDeg: 45 } });
      const ahead = phase === 'START' || phase === 'UPDATE' || phase === 'APPROACHING';
      const projection = new EventProjection(r.timeMs, r.geometry, r.box, MOTION);
      return precipitationPayload({
        ...who,
        rain: r,
        reference,
        phase,
        ...(phase === 'END' ? { endReason: 'EXPIRED' as const } : {}),
        ...(phase === 'APPROACH_CANCELLED' ? { cancelReason: 'EXPIRED' as const } : {}),
        ...(ahead ? { centroidArrivalMs: r.timeMs + 900_000 } : {}),
        eta: ahead ? (projection.etaFor('near', new PreparedCircle([32.7, 39.8], 3_000), true) ?? null) : null,
      });
    }),
    forecastPayload({
      ...who,
      registration,
      slot: slotOn('MORNING', day),
      late: false,
      evaluatedAtMs: day + 4 * 3_600_000,
      reference,
      distanceM: 0,
      run: { runId: 'run-1', issueMs: day - 3_600_000 },
      violations: [
        {
          metric: 'WIND_GUSTS_MAX',
          unit: 'km/h',
          threshold: 'STRONG_WIND',
          thresholdValue: 62,
          comparison: '>=',
          forecasts: [{ time: new Date(day).toISOString(), value: 70, cellId: 'c1', latitude: 39.9, longitude: 32.8 }],
        },
      ],
    }),
  ];
}

describe('webhook payloads against their OpenAPI schemas', () => {
  it('builds every event type the matcher raises, each valid against the schema of its own type', () => {
    const payloads = builtPayloads();
    for (const payload of payloads) assert.deepEqual(payloadProblems(JSON.parse(JSON.stringify(payload))), [], JSON.stringify(payload));
    // The stages that carry a prediction really carry one here, so its schema is checked too.
    for (const payload of payloads.filter(
      (p) => ['START', 'UPDATE', 'APPROACHING'].includes(p['stage'] as string) && !(p['type'] as string).startsWith('lightning.'),
    )) {
      assert.notEqual(payload['eta'], null, `${payload['type'] as string} without an eta`);
    }
    const types = new Set(payloads.map((p) => p['type']));
    assert.deepEqual([...types].sort(), WEBHOOK_EVENT_TYPES.filter((t) => t !== 'webhook.test').sort(), "one of each type but the notifier's test");
  });

  it('tells a payload that breaks its schema, naming the field', () => {
    const [first] = builtPayloads();
    const broken = { ...first, dischargeType: 'BALL_LIGHTNING', payloadVersion: 1 };
    const problems = payloadProblems(broken);
    assert.ok(
      problems.some((p) => p.includes('/dischargeType')),
      problems.join('; '),
    );
    assert.ok(
      problems.some((p) => p.includes('/payloadVersion')),
      problems.join('; '),
    );
    assert.deepEqual(payloadProblems({ ...first, type: 'lightning.ball' }), ['type "lightning.ball" is not a webhook event type']);
  });
});
