import { alarmV1, enumNames, weatherV1 } from '@stormhook/proto';
import { WEBHOOK_PAYLOAD_VERSION, type WebhookEventType } from './event-types.js';
import { COMPARISONS, THRESHOLD_METRICS } from './forecast-thresholds.js';

/**
 * JSON Schema (2020-12, the dialect of OpenAPI 3.1) of every callback body, payload version 2: the
 * OpenAPI `webhooks` section documents them; the matcher's unit tests check its builders against them
 * (payloadProblems), and system tests check real deliveries against the served document.
 * Objects stay open (no additionalProperties: false): within a version fields are only added, and a
 * receiver must ignore what it does not know.
 */
export type PayloadSchema = { readonly [keyword: string]: unknown };

const number = { type: 'number' };
const integer = { type: 'integer' };
const string = { type: 'string' };
const epochMillis = { type: 'integer', description: 'epoch milliseconds, UTC' };
const isoTime = { type: 'string', format: 'date-time', description: 'ISO 8601, UTC with Z' };
const nullable = (schema: PayloadSchema): PayloadSchema => ({ ...schema, type: [schema['type'] as string, 'null'] });
const object = (properties: Record<string, PayloadSchema>, required: readonly string[] = Object.keys(properties)): PayloadSchema => ({
  type: 'object',
  properties,
  required: [...required],
});
const lngLat = object({ lng: number, lat: number });
const polygon = nullable(object({ exterior: { type: 'array', items: lngLat }, holes: { type: 'array', items: { type: 'array', items: lngLat } } }));

function envelope(type: WebhookEventType, timestamp: string): Record<string, PayloadSchema> {
  return {
    type: { const: type, description: 'what this callback is; also sent as the webhook-event-type header' },
    payloadVersion: { const: WEBHOOK_PAYLOAD_VERSION, description: 'shape version: fields are only added within a version' },
    timestamp: { ...isoTime, description: `ISO 8601 UTC: ${timestamp}` },
    id: { type: 'string', description: 'the notification id (also the webhook-id header); echo it in the acknowledgement' },
    recovered: {
      const: true,
      description: 'present only on a callback sent again by POST /v1/alarms/webhooks/recover (also the webhook-recovered header): same id, so de-duplicate',
    },
  };
}

/** Envelope fields a callback carries only sometimes. */
const OCCASIONAL = ['recovered'];

const addressee = {
  registrationId: { type: 'string', description: 'the alarm registration that matched' },
  recipientId: { type: 'string', description: 'your own reference given at registration' },
};

function payload(
  title: string,
  type: WebhookEventType,
  timestamp: string,
  description: string,
  fields: Record<string, PayloadSchema>,
  optional: readonly string[] = [],
): PayloadSchema {
  const properties = { ...envelope(type, timestamp), ...fields };
  return {
    title,
    description,
    ...object(
      properties,
      Object.keys(properties).filter((name) => !optional.includes(name) && !OCCASIONAL.includes(name)),
    ),
  };
}

const lightningStrike = payload(
  'LightningStrikePayload',
  'lightning.strike',
  'the discharge time',
  'A lightning discharge inside the area of a registration, passing its filter.',
  {
    stage: { const: 'START' },
    strikeId: { ...string, description: "the detection network's id of the discharge" },
    eventId: { ...string, description: "Stormhook's id of the strike (ltg_...)" },
    ...addressee,
    timeEpochMillis: epochMillis,
    dischargeType: { enum: [...enumNames(weatherV1.LightningType, 'LIGHTNING_TYPE_')] },
    latitude: number,
    longitude: number,
    peakCurrent: { ...number, description: 'amperes, signed (negative = negative polarity)' },
    inCloudHeight: { ...nullable(number), description: 'metres above mean sea level; null for cloud-to-ground' },
    multiplicity: object({ strokes: integer }),
    distance: { ...number, description: "metres from the registration's reference point" },
  },
);

const lightningAllClear = payload(
  'LightningAllClearPayload',
  'lightning.all_clear',
  'the end of the quiet period',
  'No matching discharge for the quiet period after a lightning episode.',
  {
    stage: { const: 'ALL_CLEAR' },
    ...addressee,
    timeEpochMillis: { ...epochMillis, description: 'when the quiet period ended' },
    firstStrikeEpochMillis: epochMillis,
    lastStrikeEpochMillis: epochMillis,
    quietPeriodMinutes: number,
  },
);

const lightningApproaching = payload(
  'LightningApproachingPayload',
  'lightning.approaching',
  'the discharge time of the strike that sent it',
  "Lightning in the registration's approach ring (filter lightning.approachRadius): beyond its area, within the ring. Once per ring episode, on its second ring strike.",
  {
    stage: { const: 'APPROACHING' },
    strikeId: { ...string, description: "the detection network's id of the discharge that sent it" },
    eventId: { ...string, description: "Stormhook's id of that strike (ltg_...)" },
    ...addressee,
    timeEpochMillis: epochMillis,
    latitude: number,
    longitude: number,
    distance: { ...number, description: "metres from the area's edge to this strike" },
    nearestDistance: { ...number, description: "metres from the area's edge to the nearest ring strike of the episode so far" },
    closing: { type: 'boolean', description: 'this strike is nearer to the area than the ring strike before it' },
    firstStrikeEpochMillis: { ...epochMillis, description: 'the first ring strike of the episode' },
    strikesInRing: { ...integer, description: 'ring strikes counted in the episode so far' },
    approachRadius: { ...number, description: 'the ring width, metres beyond the area, as registered' },
  },
);

const endReason = { enum: ['LEFT_AREA', 'FILTER_NOT_MET', 'EXPIRED'], description: 'END only' };
const cancelReason = {
  enum: ['NO_LONGER_PREDICTED', 'EXPIRED'],
  description: 'APPROACH_CANCELLED only: no entry is predicted any more (it turned, slowed or weakened), or the event stopped being updated',
};

/** The stages of a storm's or rain area's life, as the `stage` field and the event type's suffix name them. */
type TrackedStage = 'START' | 'UPDATE' | 'END' | 'APPROACHING' | 'APPROACH_CANCELLED';

const ETA_STAGES: readonly TrackedStage[] = ['START', 'UPDATE', 'APPROACHING'];

/** The prediction of arrival carried by START, UPDATE and APPROACHING (null on the other stages). */
const eta = nullable({
  ...object({
    arrivalEpochMillis: { ...epochMillis, description: 'predicted entry into the area (once inside: the reconstructed entry)' },
    departureEpochMillis: { ...nullable(integer), description: 'predicted exit from the area, epoch ms; null when it is still inside at the horizon' },
    arrivalEarliestEpochMillis: { ...epochMillis, description: 'start of the window the true arrival falls in 8 times in 10 (as measured, README)' },
    arrivalLatestEpochMillis: { ...epochMillis, description: 'end of that window' },
    leadMinutes: { ...number, description: 'minutes from the observation to the predicted arrival; 0 once inside' },
    confidence: { enum: ['HIGH', 'MEDIUM', 'LOW'], description: 'from the steadiness and age of the track and the lead time' },
    trackAgeMinutes: { ...number, description: 'minutes of track behind the prediction' },
    motion: {
      ...nullable(
        object({
          speedKmh: number,
          towardDeg: { ...number, description: 'direction of travel: TOWARDS, degrees clockwise from north' },
          fromDeg: { ...number, description: 'the same direction as where it comes FROM (towardDeg + 180)' },
          source: { enum: ['FEED', 'TRACK'], description: "FEED: the publisher's motion vector; TRACK: estimated from the event's positions" },
        }),
      ),
      description: 'the motion extrapolated; null when unknown (nothing projected)',
    },
    issuedEpochMillis: { ...epochMillis, description: 'the observation the prediction starts from' },
    horizonMinutes: { ...integer, description: 'how far ahead arrivals are predicted' },
    method: { const: 'LINEAR_EXTRAPOLATION' },
  }),
  description:
    'predicted arrival: the polygon moved along its motion (linear extrapolation) up to the horizon; null when no arrival is predicted or on END and APPROACH_CANCELLED',
});

function stageWords(stage: TrackedStage, what: string): string {
  switch (stage) {
    case 'START':
      return `${what} reached the area of a registration.`;
    case 'UPDATE':
      return `${what} worsened over the area of a registration.`;
    case 'END':
      return `${what} left or stopped affecting the area of a registration.`;
    case 'APPROACHING':
      return `${what} is predicted to reach the area of a registration within its lead time (filter approach.leadMinutes).`;
    case 'APPROACH_CANCELLED':
      return `An earlier APPROACHING no longer holds: ${what.toLowerCase()} is not predicted to reach the area any more.`;
  }
}

/** The fields that differ by stage: the stage itself, its reason, and whether an eta is carried. */
function stageFields(stage: TrackedStage): Record<string, PayloadSchema> {
  return {
    stage: { const: stage },
    ...(stage === 'END' ? { endReason } : {}),
    ...(stage === 'APPROACH_CANCELLED' ? { cancelReason } : {}),
    eta: ETA_STAGES.includes(stage) ? eta : { type: 'null', description: 'null on this stage' },
  };
}

function thunderstorm(type: WebhookEventType, stage: TrackedStage, title: string): PayloadSchema {
  return payload(title, type, 'when this revision of the storm was observed', stageWords(stage, 'A thunderstorm cell'), {
    ...stageFields(stage),
    thunderstormId: { ...string, description: "Stormhook's event id (tst_...)" },
    eventId: { ...string, description: "the tracker's id, the eventId of the thunderstorm list" },
    ...addressee,
    eventStartUtc: { ...integer, description: 'epoch SECONDS: entry into the registered area (predicted ahead of it, reconstructed once inside)' },
    eventEndUtc: {
      ...integer,
      description: "epoch SECONDS: exit from the registered area (predicted; observed at END); the storm's expected end when none is predicted",
    },
    stormStartUtc: { ...integer, description: "epoch SECONDS: the storm's own start" },
    stormEndUtc: { ...integer, description: "epoch SECONDS: the storm's own (expected) end" },
    severity: { enum: [...enumNames(weatherV1.ThunderstormSeverity, 'THUNDERSTORM_SEVERITY_')] },
    threshold: { ...number, description: 'flashes per minute for a thunderstorm' },
    speedKmh: number,
    distance: { ...number, description: 'metres from the affected polygon (or the cell) to the reference point; 0 under it' },
    affectedPolygon: polygon,
    cell: object({
      area: { ...number, description: 'km²' },
      speedKmh: number,
      direction: { ...number, description: 'degrees clockwise from north, towards' },
      distance: nullable(number),
      centroid: lngLat,
      polygon,
      flashRates: object({ inCloud: number, cloudToGround: number, total: number }),
    }),
  });
}

function precipitation(type: WebhookEventType, stage: TrackedStage, title: string): PayloadSchema {
  return payload(title, type, 'the radar scan time (or the nowcast time)', stageWords(stage, 'Rain'), {
    ...stageFields(stage),
    eventId: { ...string, description: 'the precipitation event (prc_...)' },
    ...addressee,
    timeEpochMillis: {
      ...epochMillis,
      description: "when the rain is predicted to reach the target's centroid; the observation time when it covers it already or is not predicted to",
    },
    observedEpochMillis: { ...epochMillis, description: 'radar scan time, or the valid time of a nowcast' },
    forecast: { type: 'boolean', description: 'true for a nowcast' },
    intensity: { enum: [...enumNames(weatherV1.PrecipitationIntensity, 'PRECIPITATION_INTENSITY_')] },
    rainRate: { ...nullable(number), description: 'mm/h when the publisher sent one' },
    centroid: lngLat,
    areaKm2: number,
    distance: { ...number, description: "metres from the area's centroid to the reference point" },
  });
}

const forecastAlarm = payload(
  'ForecastAlarmPayload',
  'forecast.alarm',
  'the slot time (04:00 or 16:00 UTC)',
  'At a delivery slot, the forecast breaches a threshold of the registration.',
  {
    ...addressee,
    notificationTime: isoTime,
    delivery: { enum: [...enumNames(alarmV1.ForecastDelivery, 'FORECAST_DELIVERY_')] },
    scheduledTime: isoTime,
    late: { type: 'boolean', description: 'the slot was evaluated after downtime' },
    latitude: number,
    longitude: number,
    cityId: integer,
    city: nullable(string),
    districtId: integer,
    district: nullable(string),
    distance: number,
    forecastRunId: nullable(string),
    forecastIssueTime: { ...isoTime, type: ['string', 'null'] },
    violations: {
      type: 'array',
      items: object({
        metric: { enum: [...THRESHOLD_METRICS] },
        unit: string,
        threshold: string,
        thresholdValue: number,
        comparison: { enum: [...COMPARISONS] },
        forecasts: { type: 'array', items: object({ time: string, value: number, cellId: string, latitude: number, longitude: number }) },
      }),
    },
  },
);

const webhookTest = payload('WebhookTestPayload', 'webhook.test', 'when the test was requested', 'A test delivery (POST /v1/alarms/webhooks/test).', {
  accountId: string,
  message: string,
  timeEpochMillis: epochMillis,
});

/** One schema per event type of the catalogue. */
export const WEBHOOK_PAYLOAD_SCHEMAS: Readonly<Record<WebhookEventType, PayloadSchema>> = {
  'lightning.strike': lightningStrike,
  'lightning.all_clear': lightningAllClear,
  'lightning.approaching': lightningApproaching,
  'thunderstorm.start': thunderstorm('thunderstorm.start', 'START', 'ThunderstormStartPayload'),
  'thunderstorm.update': thunderstorm('thunderstorm.update', 'UPDATE', 'ThunderstormUpdatePayload'),
  'thunderstorm.end': thunderstorm('thunderstorm.end', 'END', 'ThunderstormEndPayload'),
  'thunderstorm.approaching': thunderstorm('thunderstorm.approaching', 'APPROACHING', 'ThunderstormApproachingPayload'),
  'thunderstorm.approach_cancelled': thunderstorm('thunderstorm.approach_cancelled', 'APPROACH_CANCELLED', 'ThunderstormApproachCancelledPayload'),
  'precipitation.start': precipitation('precipitation.start', 'START', 'PrecipitationStartPayload'),
  'precipitation.update': precipitation('precipitation.update', 'UPDATE', 'PrecipitationUpdatePayload'),
  'precipitation.end': precipitation('precipitation.end', 'END', 'PrecipitationEndPayload'),
  'precipitation.approaching': precipitation('precipitation.approaching', 'APPROACHING', 'PrecipitationApproachingPayload'),
  'precipitation.approach_cancelled': precipitation('precipitation.approach_cancelled', 'APPROACH_CANCELLED', 'PrecipitationApproachCancelledPayload'),
  'forecast.alarm': forecastAlarm,
  'webhook.test': webhookTest,
};
