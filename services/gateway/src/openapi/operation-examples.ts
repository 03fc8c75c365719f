import { TopicNames } from '@stormhook/kafka';
import { queryV1 } from '@stormhook/proto';
import type { OperationId } from '../contract/operation-ids.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { backtestExamples } from './backtest-examples.js';
import { exampleOf } from './examples.js';

export interface OperationExamples {
  /** The request body's example; undefined when the operation takes no body. */
  request?: unknown;
  /** The main 2xx answer's example; undefined when it has no body. */
  response?: unknown;
}

/**
 * Examples written out where one built from the schema would be wrong or say little: the worked cases
 * of interface.md 4 (a geometry over Ankara, a page of the last hour) and bodies whose fields exclude
 * each other. Everything else is built from the schema and the field values of examples.ts.
 */
/**
 * 4.1's answer: real bytes of a PrecipitationFeatureCollection, one moderate-rain event over central
 * Ankara, so a reader can decode the example with the .proto and see what the operation returns.
 */
function geometryAnswer(): string {
  const ring = [
    { lng: 32.8, lat: 39.9 },
    { lng: 32.92, lat: 39.9 },
    { lng: 32.92, lat: 39.97 },
    { lng: 32.8, lat: 39.97 },
    { lng: 32.8, lat: 39.9 },
  ];
  const bytes = queryV1.PrecipitationFeatureCollection.encode({
    features: [
      {
        id: 'prc-20261128-1200-ank-0001',
        geometry: { type: 'GEOMETRY_TYPE_MULTI_POLYGON', multiPolygon: { polygons: [{ rings: [{ coordinates: ring }] }] } },
        properties: { intensity: 'MODERATE', radarTimestamp: 1_795_788_000_000, forecast: false },
      },
    ],
  });
  return Buffer.from(bytes).toString('base64');
}

const WRITTEN: Partial<Record<OperationId, OperationExamples>> = {
  getGeometryByEventIds: {
    request: { eventIds: ['prc-20261128-1200-ank-0001'], center: { lng: 32.8597, lat: 39.9334 }, radius: 20_000 },
    response: geometryAnswer(),
  },
  // Exactly one of roles or its alias role, and a password or an invitation, never both.
  createUser: {
    request: {
      username: 'ayse.yilmaz@example.com.tr',
      firstName: 'Ayşe',
      lastName: 'Yılmaz',
      locale: 'tr_TR',
      timezone: 'Europe/Istanbul',
      roles: 'STANDARD_USER',
      invite: true,
      invitationPageLink: 'https://portal.example.com.tr/invitation',
    },
  },
  // The bracket notation of interface.md 4.16.
  getUserPage: {
    request: { roles: '[STANDARD_USER, API_USER]', status: '[ACTIVE]', sortBy: { username: 'asc' }, pageNumber: 0, pageSize: 20, includeAccount: true },
  },
  // The two documents, abridged: an example of the whole would repeat the page it is on.
  getOpenApiDocument: {
    response: { openapi: '3.1.0', info: { title: 'Stormhook API', version: '1.0.0' }, paths: { '/v1/precipitations/geometry': {} } },
  },
  getAsyncApiDocument: {
    response: {
      asyncapi: '3.0.0',
      info: { title: 'Stormhook feed topics', version: '1.0.0' },
      channels: { [TopicNames.FeedLightning]: { address: TopicNames.FeedLightning } },
    },
  },
  // 4.2: the last hour over the subscription's area, moderate rain and heavier.
  getPrecipitationPage: {
    request: { backwardInterval: 3600, endTimeEpoch: 1_795_788_000_000, intensityThreshold: 'MODERATE', pageNumber: 0, pageSize: 20 },
  },
  // A click on central Ankara: Çankaya has no neighbourhoods in the data (they cover İstanbul only).
  locateArea: {
    request: { point: { lng: 32.8597, lat: 39.9334 } },
    response: { countryCode: 'TUR', city: { id: 6, name: 'Ankara' }, district: { id: 1231, name: 'Çankaya' }, neighborhood: null },
  },
  // A receiver that has been answering 503 for ten minutes after a good day.
  getWebhookHealth: { response: webhookHealthExample() },
  // The register bodies with a week's window; a week with a storm (or a rainy forecast) and its sweep.
  backtestGeometryAlarm: backtestExamples('geometries'),
  backtestForecastAlarm: backtestExamples('forecasts'),
  backtestPointAlarm: backtestExamples('points'),
};

/** The health answer of a webhook failing for ten minutes (12:00 UTC, the examples' now). */
function webhookHealthExample(): Record<string, unknown> {
  const now = 1_795_788_000_000;
  const failingSince = now - 600_000;
  const window = (attempts: number, failed: number, p50: number, p99: number) => ({
    attempts,
    succeeded: attempts - failed,
    failed,
    successRate: Math.round(((attempts - failed) / attempts) * 1000) / 1000,
    latencyMs: { p50, p95: p99 / 2, p99 },
    weatherAgeMs: { p50: 2_000, p99: 15_000 },
  });
  return {
    state: 'FAILING',
    failingSinceEpochMs: failingSince,
    failuresInRow: 14,
    disabledReason: null,
    disabledAtEpochMs: null,
    lastHour: window(120, 14, 100, 1_000),
    last24Hours: window(2_410, 16, 75, 500),
    last7Days: window(15_877, 31, 75, 500),
    failures: [
      {
        failureClass: 'HTTP_5XX',
        status: 503,
        count: 14,
        firstEpochMs: failingSince,
        lastEpochMs: now - 20_000,
        example: { notificationId: 'ntf_01JDXK9V4N8C2T6QW3ZB5R7Y1M', attemptNumber: 2, responseStatusCode: 503, error: 'HTTP 503' },
      },
      {
        failureClass: 'TIMEOUT',
        status: null,
        count: 2,
        firstEpochMs: now - 86_000_000,
        lastEpochMs: now - 85_400_000,
        example: { notificationId: 'ntf_01JDVQ2M8P6K4H1N7C3X9B5T0S', attemptNumber: 1, responseStatusCode: null, error: 'timed out after 10000 ms' },
      },
    ],
    lastSuccessEpochMs: failingSince - 4_000,
    waitingDeliveries: 9,
    nextRetryEpochMs: now + 40_000,
    asOfEpochMs: now,
  };
}

/** The request and main-answer examples of one operation. */
export function operationExamples(spec: RouteSpec): OperationExamples {
  const written = WRITTEN[spec.operationId] ?? {};
  return {
    ...(spec.request.body ? { request: written.request ?? exampleOf(spec.request.body, 'request') } : {}),
    ...(spec.response.schema ? { response: written.response ?? exampleOf(spec.response.schema, 'answer') } : {}),
  };
}
