import { TopicNames } from '@stormhook/kafka';
import { queryV1 } from '@stormhook/proto';
import type { OperationId } from '../contract/operation-ids.js';
import type { RouteSpec } from '../contract/route-spec.js';
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
};

/** The request and main-answer examples of one operation. */
export function operationExamples(spec: RouteSpec): OperationExamples {
  const written = WRITTEN[spec.operationId] ?? {};
  return {
    ...(spec.request.body ? { request: written.request ?? exampleOf(spec.request.body, 'request') } : {}),
    ...(spec.response.schema ? { response: written.response ?? exampleOf(spec.response.schema, 'answer') } : {}),
  };
}
