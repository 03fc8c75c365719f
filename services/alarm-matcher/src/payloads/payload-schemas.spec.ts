import assert from 'node:assert/strict';
import { square } from '@stormhook/geometry/testing';
import { payloadProblems, WEBHOOK_EVENT_TYPES } from '@stormhook/webhooks';
import type { ForecastRegistration } from '../domain/registration.js';
import { slotOn } from '../forecast/slots.js';
import { rain, storm, strike } from '../test-support/fixtures.js';
import { forecastPayload } from './forecast-payload.js';
import { lightningAllClearPayload, lightningPayload } from './lightning-payload.js';
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

/** Every payload the matcher builds, one per event type it raises, from the builders it really uses. */
function builtPayloads(): Array<Record<string, unknown>> {
  const cell = square(32.8, 39.9, 0.1);
  const area = square(32.7, 39.8, 0.3);
  const day = Date.UTC(2030, 0, 15);
  return [
    lightningPayload({ ...who, strike: strike(32.86, 39.93, { inCloudHeightM: 7_000, type: 'FLASH_IN_CLOUD' }), distanceM: 1_234.5678 }),
    lightningPayload({ ...who, strike: strike(32.86, 39.93), distanceM: 10 }),
    lightningAllClearPayload({ ...who, activity: { registrationId: 'reg-1', firstStrikeMs: day, lastStrikeMs: day + 60_000 }, quietMs: 30 * 60_000 }),
    ...(['START', 'UPDATE', 'END'] as const).map((phase) =>
      thunderstormPayload({
        ...who,
        storm: storm(cell, phase === 'UPDATE' ? [] : area),
        reference,
        phase,
        ...(phase === 'END' ? { endReason: 'LEFT_AREA' as const } : {}),
      }),
    ),
    ...(['START', 'UPDATE', 'END'] as const).map((phase) =>
      precipitationPayload({ ...who, rain: rain(area), reference, phase, ...(phase === 'END' ? { endReason: 'EXPIRED' as const } : {}) }),
    ),
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
    const types = new Set(payloads.map((p) => p['type']));
    assert.deepEqual([...types].sort(), WEBHOOK_EVENT_TYPES.filter((t) => t !== 'webhook.test').sort(), "one of each type but the notifier's test");
  });

  it('tells a payload that breaks its schema, naming the field', () => {
    const [first] = builtPayloads();
    const broken = { ...first, dischargeType: 'BALL_LIGHTNING', payloadVersion: 2 };
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
