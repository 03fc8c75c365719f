import { operationRule } from '@stormhook/access';
import type { RouteSpec } from '../contract/route-spec.js';
import { STORED_WEBHOOK_OPERATIONS } from '../contract/operation-ids.js';
import { MISSING_EVENT_IDS_HEADER } from '../handlers/weather.js';
import { HEALTH_PATHS } from '../health/handlers.js';
import { ALARM_OPERATIONS } from '../routes/alarms.js';
import { STREAM_CONTENT } from './stream-examples.js';

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });

/** Sent on every answer of an operation that counts against a quota, for metered callers (not ADMIN): http/auth.ts. */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': integerHeader('invocations the subscription allows in the current window'),
  'RateLimit-Remaining': integerHeader('invocations left in the window, this one counted'),
  'RateLimit-Reset': integerHeader('seconds until the window starts again'),
  'RateLimit-Policy': { description: 'limit;w=window seconds', schema: { type: 'string', examples: ['1000;w=86400'] } },
};

/**
 * Operations whose success answer says `Cache-Control: no-store`, as their handlers set it: tokens
 * (handlers/identity-auth.ts, the password reset), the one answer that shows an API key, the stored
 * webhook and its secrets (handlers/webhooks.ts), alarm registrations, which show the webhook
 * (handlers/alarms.ts), and the health checks (health/handlers.ts). The gateway's
 * response-headers integration test holds this list to what real answers send.
 */
const NO_STORE = new Set<string>([
  'login',
  'refreshToken',
  'resetPassword',
  'createApiKey',
  ...STORED_WEBHOOK_OPERATIONS,
  ...Object.values(ALARM_OPERATIONS).flatMap((names) => [names.register, names.update, names.getById, names.page, names.byRecipient]),
  'streamWeather',
  'getHealth',
  'getLiveness',
  'getReadiness',
]);

const CACHE_CONTROL = {
  description: 'no-store: the answer holds a secret, a token or a webhook configuration, or a state that is only true now; caches must not keep it',
  schema: { type: 'string', const: 'no-store' },
};

/** Echoed by http/tracing.ts on every traced request: all but the health checks, polled too often to trace. */
const TRACEPARENT = {
  description: "W3C trace context of this request's trace (it continues the caller's traceparent when one was sent): quote it when reporting a problem",
  schema: { type: 'string', pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' },
};

/** Operations that answer boundaries, with the attribution their licences require (handlers/areas.ts). */
const ATTRIBUTED = new Set(['listGeometryAlarmCities', 'getNeighborhood', 'locateArea', 'getDistrict', 'listCountryCities']);

/** The headers of the success answer of the operation, as the handlers and the middleware send them. */
export function successHeaders({ operationId, path }: Pick<RouteSpec, 'operationId' | 'path'>): Record<string, unknown> | undefined {
  const headers: Record<string, unknown> = {};
  if (!HEALTH_PATHS.includes(path)) headers['traceparent'] = TRACEPARENT;
  if (NO_STORE.has(operationId)) headers['Cache-Control'] = CACHE_CONTROL;
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
  if (operationId === 'streamWeather') return STREAM_CONTENT;
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
