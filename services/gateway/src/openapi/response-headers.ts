import { operationRule } from '@stormhook/access';
import { MISSING_EVENT_IDS_HEADER } from '../handlers/weather.js';

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });

/** Sent on every answer of an operation that counts against a quota, for metered callers (not ADMIN): http/auth.ts. */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': integerHeader('invocations the subscription allows in the current window'),
  'RateLimit-Remaining': integerHeader('invocations left in the window, this one counted'),
  'RateLimit-Reset': integerHeader('seconds until the window starts again'),
  'RateLimit-Policy': { description: 'limit;w=window seconds', schema: { type: 'string', examples: ['1000;w=86400'] } },
};

/** Operations that answer boundaries, with the attribution their licences require (handlers/areas.ts). */
const ATTRIBUTED = new Set(['listGeometryAlarmCities', 'getNeighborhood', 'getDistrict', 'listCountryCities']);

/** The headers of the success answer of `operationId`, as the handlers send them. */
export function successHeaders(operationId: string): Record<string, unknown> | undefined {
  const headers: Record<string, unknown> = {};
  if (operationRule(operationId)?.quota) Object.assign(headers, RATE_LIMIT_HEADERS);
  if (ATTRIBUTED.has(operationId)) {
    headers['X-Data-Attribution'] = { description: "the attribution the boundary data's licences require; show it with the data", schema: { type: 'string' } };
  }
  if (operationId === 'getGeometryByEventIds') {
    headers[MISSING_EVENT_IDS_HEADER] = {
      description: 'comma-separated event ids that are unknown or have no geometry (absent when every id was found)',
      schema: { type: 'string' },
    };
  }
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/**
 * The raw protobuf answer of the geometry operation (`Accept: application/x-protobuf`, handlers/weather.ts).
 * `base64Answer` is the JSON answer's example, the base64 text of the same bytes: raw bytes have no
 * JSON form, so the example shows them base64-encoded and says so.
 */
export function alternativeContent(operationId: string, base64Answer: unknown): Record<string, unknown> | undefined {
  if (operationId !== 'getGeometryByEventIds') return undefined;
  return {
    'application/x-protobuf': {
      schema: {
        type: 'string',
        contentMediaType: 'application/x-protobuf',
        description:
          'the raw bytes of stormhook.query.v1.PrecipitationFeatureCollection (proto/stormhook/query/v1/precipitation_geometry.proto), sent for Accept: application/x-protobuf',
      },
      ...(typeof base64Answer === 'string'
        ? {
            examples: {
              ankara: {
                summary: 'one moderate-rain event over central Ankara',
                description:
                  'The bytes of the JSON example, shown base64-encoded here: the answer body is the raw bytes, which decode with the .proto named by the schema.',
                value: base64Answer,
              },
            },
          }
        : {}),
    },
  };
}
