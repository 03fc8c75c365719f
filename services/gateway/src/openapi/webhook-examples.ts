import { WEBHOOK_PAYLOAD_VERSION, type WebhookEventType } from '@stormhook/webhooks';
import { ANKARA, ANKARA_RING, exampleField, NOW, NOW_MS } from './examples.js';

/**
 * One callback body per event type, as the matcher and the notifier build them, over the Ankara of
 * the other examples: the same registration, recipient and events a reader meets in the operations.
 * Written out, not built from the schemas: a receiver's author reads these to see what arrives (the
 * discharge in amperes, a storm's cell, a forecast's violations). examples.spec.ts validates each one
 * with payloadProblems, the check the delivery tests apply to real callbacks.
 */
const NOW_S = NOW_MS / 1000;
const addressed = { registrationId: exampleField('registrationId'), recipientId: exampleField('recipientId') };
const unaddressed = (type: WebhookEventType, timestamp = NOW) => ({
  type,
  payloadVersion: WEBHOOK_PAYLOAD_VERSION,
  timestamp,
  id: exampleField('notificationId'),
});
const envelope = (type: WebhookEventType, timestamp = NOW) => ({ ...unaddressed(type, timestamp), ...addressed });

type Stage = 'START' | 'UPDATE' | 'END' | 'APPROACHING' | 'APPROACH_CANCELLED';

/**
 * The prediction of a storm 25 minutes west-south-west of the alarm, moving at 35 km/h towards 60°
 * (from 240°); once inside (START, UPDATE) the arrival is the reconstructed entry, 10 minutes ago.
 */
function eta(stage: Stage): Record<string, unknown> | null {
  if (stage === 'END' || stage === 'APPROACH_CANCELLED') return null;
  const ahead = stage === 'APPROACHING';
  const arrival = ahead ? NOW_MS + 25 * 60_000 : NOW_MS - 10 * 60_000;
  return {
    arrivalEpochMillis: arrival,
    departureEpochMillis: arrival + 40 * 60_000,
    arrivalEarliestEpochMillis: ahead ? arrival - 12 * 60_000 : arrival,
    arrivalLatestEpochMillis: ahead ? arrival + 14 * 60_000 : arrival,
    leadMinutes: ahead ? 25 : 0,
    confidence: ahead ? 'MEDIUM' : 'HIGH',
    trackAgeMinutes: 20,
    motion: { speedKmh: 35, towardDeg: 60, fromDeg: 240, source: 'FEED' },
    issuedEpochMillis: NOW_MS,
    horizonMinutes: 60,
    method: 'LINEAR_EXTRAPOLATION',
  };
}

function reason(stage: Stage, endReason: string): Record<string, string> {
  if (stage === 'END') return { endReason };
  if (stage === 'APPROACH_CANCELLED') return { cancelReason: 'NO_LONGER_PREDICTED' };
  return {};
}
const area = { exterior: ANKARA_RING, holes: [] };

function thunderstorm(type: WebhookEventType, stage: Stage): Record<string, unknown> {
  const ahead = stage === 'APPROACHING' || stage === 'APPROACH_CANCELLED';
  return {
    ...envelope(type),
    stage,
    ...reason(stage, 'LEFT_AREA'),
    thunderstormId: 'tst_01JDXK9V4N8C2T6Q',
    eventId: 'TRK-20261128-0412',
    // Entry into and exit from the registered area.
    eventStartUtc: ahead ? NOW_S + 1_500 : NOW_S - 600,
    eventEndUtc: stage === 'END' ? NOW_S - 60 : ahead ? NOW_S + 3_900 : NOW_S + 1_800,
    stormStartUtc: NOW_S - 3_600,
    stormEndUtc: NOW_S + 5_400,
    eta: eta(stage),
    severity: stage === 'UPDATE' ? 'HIGH' : 'MEDIUM',
    threshold: 3,
    speedKmh: 35,
    distance: stage === 'END' ? 4_200 : 0,
    affectedPolygon: stage === 'END' ? null : area,
    cell: {
      area: 182.4,
      speedKmh: 35,
      direction: 240,
      distance: stage === 'END' ? 4_200 : 0,
      centroid: { lng: 32.86, lat: 39.935 },
      polygon: area,
      flashRates: { inCloud: 12, cloudToGround: 4, total: 16 },
    },
  };
}

function precipitation(type: WebhookEventType, stage: Stage): Record<string, unknown> {
  return {
    ...envelope(type),
    stage,
    ...reason(stage, 'EXPIRED'),
    eventId: exampleField('eventId'),
    // Predicted to reach the alarm's centre 30 minutes after the scan (APPROACHING), 5 after it (START).
    timeEpochMillis: stage === 'APPROACHING' ? NOW_MS + 1_800_000 : stage === 'START' ? NOW_MS + 300_000 : NOW_MS,
    observedEpochMillis: NOW_MS,
    eta: eta(stage),
    forecast: false,
    intensity: stage === 'UPDATE' ? 'HEAVY' : 'MODERATE',
    rainRate: stage === 'UPDATE' ? 12.5 : 4.2,
    centroid: { lng: 32.86, lat: 39.935 },
    areaKm2: 182.4,
    distance: 1_350,
  };
}

export const WEBHOOK_EXAMPLES: Readonly<Record<WebhookEventType, Record<string, unknown>>> = {
  'lightning.strike': {
    ...envelope('lightning.strike'),
    stage: 'START',
    strikeId: 'ens-20261128-120000-7731',
    eventId: 'ltg_01JDXK4M7Q2R5W9Z',
    timeEpochMillis: NOW_MS,
    dischargeType: 'FLASH_CLOUD_TO_GROUND',
    latitude: 39.9412,
    longitude: 32.8711,
    peakCurrent: -24_500,
    inCloudHeight: null,
    multiplicity: { strokes: 2 },
    distance: 1_350,
  },
  'lightning.all_clear': {
    ...envelope('lightning.all_clear'),
    stage: 'ALL_CLEAR',
    timeEpochMillis: NOW_MS,
    firstStrikeEpochMillis: NOW_MS - 3_000_000,
    lastStrikeEpochMillis: NOW_MS - 1_800_000,
    quietPeriodMinutes: 30,
  },
  // The second strike in a 10 km ring, 6.2 km beyond the alarm's edge and nearer than the first.
  'lightning.approaching': {
    ...envelope('lightning.approaching'),
    stage: 'APPROACHING',
    strikeId: 'ens-20261128-120000-7729',
    eventId: 'ltg_01JDXK4K2B8N3P5R',
    timeEpochMillis: NOW_MS,
    latitude: 39.9871,
    longitude: 32.7604,
    distance: 6_200,
    nearestDistance: 6_200,
    closing: true,
    firstStrikeEpochMillis: NOW_MS - 95_000,
    strikesInRing: 2,
    approachRadius: 10_000,
  },
  'thunderstorm.start': thunderstorm('thunderstorm.start', 'START'),
  'thunderstorm.update': thunderstorm('thunderstorm.update', 'UPDATE'),
  'thunderstorm.end': thunderstorm('thunderstorm.end', 'END'),
  'thunderstorm.approaching': thunderstorm('thunderstorm.approaching', 'APPROACHING'),
  'thunderstorm.approach_cancelled': thunderstorm('thunderstorm.approach_cancelled', 'APPROACH_CANCELLED'),
  'precipitation.start': precipitation('precipitation.start', 'START'),
  'precipitation.update': precipitation('precipitation.update', 'UPDATE'),
  'precipitation.end': precipitation('precipitation.end', 'END'),
  'precipitation.approaching': precipitation('precipitation.approaching', 'APPROACHING'),
  'precipitation.approach_cancelled': precipitation('precipitation.approach_cancelled', 'APPROACH_CANCELLED'),
  // The morning slot: the forecast issued overnight breaches the registration's gust threshold.
  'forecast.alarm': {
    ...envelope('forecast.alarm', '2026-11-28T04:00:00Z'),
    notificationTime: '2026-11-28T04:00:12Z',
    delivery: 'MORNING',
    scheduledTime: '2026-11-28T04:00:00Z',
    late: false,
    latitude: ANKARA.lat,
    longitude: ANKARA.lng,
    cityId: exampleField('cityId'),
    city: 'Ankara',
    districtId: exampleField('districtId'),
    district: 'Çankaya',
    distance: 0,
    forecastRunId: exampleField('forecastRunId'),
    forecastIssueTime: '2026-11-28T00:00:00Z',
    violations: [
      {
        metric: 'WIND_GUSTS_MAX',
        unit: 'km/h',
        threshold: 'STRONG_WIND',
        thresholdValue: 50,
        comparison: '>=',
        forecasts: [{ time: '2026-11-28T00:00:00Z', value: 71.3, cellId: 'tr-ank-0612', latitude: 39.93, longitude: 32.86 }],
      },
    ],
  },
  // A test delivery belongs to no registration, so it names none.
  'webhook.test': {
    ...unaddressed('webhook.test'),
    accountId: exampleField('accountId'),
    message: 'Test delivery from Stormhook',
    timeEpochMillis: NOW_MS,
  },
};
