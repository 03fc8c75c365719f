import { MASKED_PASSWORD } from '../handlers/webhook-mapping.js';
import type { JsonSchema } from '../schemas/json-schema.js';

/**
 * Example values of the API's fields, by field name, from interface.md and its worked cases (Ankara,
 * TUR, the plan names): one home for them, so every request and answer of the document shows the same
 * account, the same place and the same times. A field not named here gets a value from its schema
 * (const, enum, examples, format, bounds). Whether the result is valid is not assumed: examples.spec.ts
 * validates every example against its operation's schema with the validator of the requests.
 */
export const ANKARA = { lng: 32.8597, lat: 39.9334 };
export const NOW_MS = 1_795_788_000_000; // 2026-11-28T12:00:00Z
export const NOW = '2026-11-28T12:00:00Z';

const FIELD_VALUES: Readonly<Record<string, unknown>> = {
  lng: ANKARA.lng,
  lat: ANKARA.lat,
  point: ANKARA,
  center: ANKARA,
  centroid: ANKARA,
  requestedLocation: ANKARA,
  accountId: '3f1c7a52-9d84-4c1e-8b0a-5e2d6f7a9b10',
  userId: '8c2e4b61-0f3a-4d7e-9a15-2b6c8d9e0f21',
  registrationId: 'b7e1d2c3-4a5f-4b6c-8d9e-0f1a2b3c4d5e',
  recipientId: 'customer-42',
  username: 'ayse.yilmaz@example.com.tr',
  firstName: 'Ayşe',
  lastName: 'Yılmaz',
  midName: 'Nur',
  locale: 'tr_TR',
  timezone: 'Europe/Istanbul',
  company: 'Anadolu Tarım A.Ş.',
  industry: 'agriculture',
  location: 'Kızılay, Çankaya, Ankara',
  mobilePhoneNumber: '+90 532 123 45 67',
  recipientPhoneNumber: '+90 532 123 45 67',
  profilePictureUrl: 'https://cdn.example.com.tr/avatars/ayse.png',
  url: 'https://hooks.example.com.tr/stormhook',
  httpMethod: 'POST',
  contentType: 'application/json',
  countryCode: 'TUR',
  country: 'TUR',
  state: 'Ankara',
  city: 'Ankara',
  cityId: 6,
  districtId: 1231,
  neighborhoodId: 40213,
  eventId: 'prc-20261128-1200-ank-0001',
  eventIds: ['prc-20261128-1200-ank-0001', 'prc-20261128-1200-ank-0002'],
  notificationId: 'ntf-20261128-1200-ank-0001',
  jobId: 'rcv_01JDXM4T7Q2W9E5R8Y3U6I0P1A',
  createdAt: NOW,
  updatedAt: NOW,
  expiresAt: '2026-12-28T12:00:00Z',
  lastUsedAt: NOW,
  issueTime: NOW,
  time: NOW,
  date: '2026-11-28',
  timestamp: NOW,
  radarTimeStamp: NOW_MS,
  insertedAtEpoch: NOW_MS,
  eventStartUtcEpoch: NOW_MS - 1_800_000,
  eventEndUtcEpoch: NOW_MS,
  endTimeEpoch: NOW_MS,
  fromEpochMs: NOW_MS - 86_400_000,
  toEpochMs: NOW_MS,
  createdAtEpochMs: NOW_MS,
  startedAtEpochMs: NOW_MS,
  finishedAtEpochMs: NOW_MS + 840,
  nextAttemptAtEpochMs: NOW_MS + 10_000,
  subscriptionExpirationEpoch: 1_798_761_600_000, // 2027-01-01T00:00:00Z
  tokenExpirationEpoch: NOW_MS + 900_000,
  backwardInterval: 3600,
  simplifyTolerance: 100,
  previousSecretValidSeconds: 86_400,
  forecastDays: 3,
  pageNumber: 0,
  pageSize: 20,
  totalRecords: 1,
  timeout: 5000,
  maxRetries: 3,
  retryDelay: 10,
  radius: 5000,
  peakCurrent: -24.5,
  inCloudHeight: 4200,
  speedThreshold: 20,
  leadMinutes: 30,
  approachRadius: 10_000,
  speed: 35,
  speedUnit: 'km/h',
  direction: 240,
  elevation: 938,
  area: 182.4,
  threshold: 0.7,
  weatherIconUrlBase: 'https://cdn.example.com.tr/weather-icons/',
  maxInvocation: 10000,
  durationMs: 840,
  attemptNumber: 1,
  attemptCount: 1,
  responseStatusCode: 200,
  lastResponseStatusCode: 200,
  accessToken: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiI4YzJlNGI2MSJ9.c2lnbmF0dXJl',
  refreshToken: 'rt_4b9f0c2a7e1d48b6a3c5d7e9f1a2b3c4',
  token: 'rst_9a8b7c6d5e4f3a2b1c0d',
  expiresIn: 900,
  password: 'Yağmur-2026!',
  newPassword: 'Fırtına-2027!',
  apiKey: 'shk_live_4f9a1c2e7b3d5a6f8e0c1b2d3a4f5e6d',
  maskedKey: 'shk_live_4f9a…5e6d',
  keyId: '4f9a1c2e7b3d5a6f',
  signingSecret: 'whsec_MfKQ9r8GKYqinwoBVQ7mbkNKkAO5pRyX',
  previousSigningSecret: 'whsec_x3Lw2Ho1v7ZcB9nQ4uKp8dTe6aYs0JfR',
  code: '482913',
  name: 'Ankara',
  message: 'ok',
  warnings: [],
  messages: [],
  serviceName: 'precipitations',
  cityName: 'Ankara',
  districtName: 'Çankaya',
  licensePlateCode: 6,
  holes: [],
  severity: 'MEDIUM',
  severityThreshold: 'MEDIUM',
  intensity: 'MODERATE',
  intensityThreshold: 'LIGHT',
  intensities: ['LIGHT', 'MODERATE'],
  forecastAlarmDelivery: ['MORNING', 'EVENING'],
  subscriptionPlan: 'BASIC_MONTHLY',
  roles: 'STANDARD_USER',
  role: 'STANDARD_USER',
  status: 'ACTIVE',
  requestHeaders: { 'X-Customer': 'anadolu-tarim' },
  metric: 'TEMPERATURE',
  unit: '°C',
  value: 11.4,
  icon: 'partly-cloudy-day.svg',
  model: 'icon_seamless',
  runId: 'icon_seamless-2026112806',
  forecastRunId: 'icon_seamless-2026112806',
  slotId: '2026-11-28T04:00Z',
  filterField: 'windGustThreshold',
  aggregation: 'maximum wind gust of the UTC day',
  eventKind: 'LIGHTNING',
  region: 'Ankara',
  distance: 1350,
  limitResetInterval: 1,
  responseBody: '{"received":true}',
  error: null,
  disabledReason: null,
  detail: 'connected',
  dataSource: 'ferretdb',
  inCloud: 12,
  cloudToGround: 4,
  total: 16,
  components: { identity: { status: 'up' }, kafka: { status: 'up' }, database: { status: 'up' } },
  payload: { type: 'lightning.strike', registrationId: 'b7e1d2c3-4a5f-4b6c-8d9e-0f1a2b3c4d5e', recipientId: 'customer-42' },
  filterByPolygonIntersection: [
    [32.8, 39.9],
    [32.92, 39.9],
    [32.92, 39.97],
    [32.8, 39.9],
  ],
};

/** The example value of the field `name`, when the table above names one. */
export function exampleField(name: string): unknown {
  return FIELD_VALUES[name];
}

/** A closed ring around central Ankara (first point equals last), for every ring-shaped field. */
export const ANKARA_RING = [
  { lng: 32.8, lat: 39.9 },
  { lng: 32.92, lat: 39.9 },
  { lng: 32.92, lat: 39.97 },
  { lng: 32.8, lat: 39.97 },
  { lng: 32.8, lat: 39.9 },
];

/** What an answer shows instead of what a request sends: secrets come back masked (handlers/webhook-mapping.ts). */
const ANSWER_VALUES: Readonly<Record<string, unknown>> = { password: MASKED_PASSWORD };

/** Whether the example is of a request (what the caller sends) or an answer (what the API returns). */
export type ExampleSide = 'request' | 'answer';

const FORMAT_VALUES: Readonly<Record<string, unknown>> = {
  uuid: '5d6e7f80-1a2b-4c3d-9e4f-5a6b7c8d9e0f',
  email: 'ayse.yilmaz@example.com.tr',
  'date-time': NOW,
  date: '2026-11-28',
  uri: 'https://hooks.example.com.tr/stormhook',
  byte: 'AAEC',
};

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

function firstType(schema: JsonSchema): string | undefined {
  const type = schema['type'];
  if (typeof type === 'string') return type;
  // A nullable field shows a value, not null: the example is to show what the field holds.
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null');
  return undefined;
}

/** Whether a field value has the JSON type of the schema (`location` is a place in one schema, an address in another). */
function fits(value: unknown, schema: JsonSchema): boolean {
  const type = schema['type'];
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : [];
  if (types.length === 0) return isObject(schema['properties']) ? isObject(value) : true;
  const actual = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  return types.some((t) => t === actual || (t === 'integer' && Number.isInteger(value)) || (t === 'number' && actual === 'number'));
}

function numberExample(schema: JsonSchema, integer: boolean): number {
  // An epoch-milliseconds field shows an instant of the examples' day, not 1970.
  if (integer && typeof schema['maximum'] === 'number' && schema['maximum'] > 1e12) return NOW_MS;
  const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : undefined;
  const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : undefined;
  const value = min ?? (max !== undefined ? Math.min(0, max) : integer ? 1 : 1.5);
  return integer ? Math.ceil(value) : value;
}

/**
 * An example value of `schema`; `name` is the field it is the value of. Object fields are all filled
 * (a reader sees every field); the first branch of a oneOf/anyOf is taken.
 */
export function exampleOf(schema: JsonSchema, side: ExampleSide, name?: string): unknown {
  if (schema['const'] !== undefined) return schema['const'];
  if (name === 'exterior' || schema['title'] === 'Ring') return ANKARA_RING;
  const known = name === undefined ? undefined : side === 'answer' && name in ANSWER_VALUES ? ANSWER_VALUES[name] : FIELD_VALUES[name];
  const allowed = schema['enum'];
  if (known !== undefined && fits(known, schema) && (!Array.isArray(allowed) || allowed.includes(known))) return known;
  const examples = schema['examples'];
  if (Array.isArray(examples) && examples.length > 0) return examples[0];
  if (schema['default'] !== undefined) return schema['default'];
  if (Array.isArray(allowed) && allowed.length > 0) return allowed[0];
  const branches = schema['oneOf'] ?? schema['anyOf'];
  // A union of whole shapes (a GeoJSON-like choice) shows its first; an object's branches are merged below.
  if (Array.isArray(branches) && isObject(branches[0]) && firstType(schema) === undefined && !isObject(schema['properties'])) {
    return exampleOf(branches[0], side, name);
  }
  const allOf = schema['allOf'];
  if (Array.isArray(allOf)) return Object.assign({}, ...allOf.filter(isObject).map((part) => exampleOf(part, side, name)));
  switch (firstType(schema) ?? (isObject(schema['properties']) ? 'object' : undefined)) {
    case 'object':
      return objectExample(schema, side);
    case 'array': {
      const items = isObject(schema['items']) ? schema['items'] : {};
      const count = Math.max(1, typeof schema['minItems'] === 'number' ? schema['minItems'] : 1);
      if (schema['maxItems'] === 0) return [];
      return Array.from({ length: count }, () => exampleOf(items, side, singular(name)));
    }
    case 'string': {
      const format = schema['format'];
      if (typeof format === 'string' && format in FORMAT_VALUES) return FORMAT_VALUES[format];
      return name ?? 'text';
    }
    case 'integer':
      return numberExample(schema, true);
    case 'number':
      return numberExample(schema, false);
    case 'boolean':
      return true;
    default:
      return name ?? 'value';
  }
}

function objectExample(schema: JsonSchema, side: ExampleSide): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = isObject(schema['properties']) ? schema['properties'] : {};
  for (const [field, sub] of Object.entries(props)) if (isObject(sub)) out[field] = exampleOf(sub, side, field);
  // A branch of a discriminated or exclusive oneOf adds its own fields (the forecast alarm's boundary).
  const branches = schema['oneOf'] ?? schema['anyOf'];
  if (Array.isArray(branches) && isObject(branches[0]) && isObject(branches[0]['properties'])) {
    Object.assign(out, objectExample(branches[0], side));
  }
  const additional = schema['additionalProperties'];
  if (Object.keys(props).length === 0 && isObject(additional)) out['key'] = exampleOf(additional, side);
  return out;
}

/** `polygons` → `polygon`, so an array of a named field reuses the element's value when there is one. */
function singular(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const one = name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.endsWith('s') ? name.slice(0, -1) : name;
  return one in FIELD_VALUES ? one : undefined;
}
