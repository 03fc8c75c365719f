import { ErrorMessages, outsideGeographicBoundaries, reasonPhrase } from '@stormhook/errors';

/**
 * The remaining quota, on every answer of a metered operation once the caller is allowed in
 * (draft-ietf-httpapi-ratelimit-headers, separate-field form).
 */
export const QUOTA_HEADERS = {
  'RateLimit-Limit': { description: 'calls the subscription allows in the current window', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'calls left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'seconds until the window ends and the counter starts again', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: '`<limit>;w=<window seconds>`, e.g. `10000;w=2592000`', schema: { type: 'string' } },
} as const;

/** Component names of the documented error statuses. */
export const ERROR_RESPONSE_NAMES: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  402: 'PaymentRequired',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  500: 'InternalServerError',
  503: 'ServiceUnavailable',
};

const EXAMPLE_MESSAGES: Readonly<Record<number, Record<string, string>>> = {
  400: { validation: 'pageSize must be <= 100', malformed: ErrorMessages.malformedJson },
  401: { unauthenticated: ErrorMessages.unauthorized },
  402: { subscription: ErrorMessages.subscriptionRequired },
  403: {
    noSubscription: ErrorMessages.noSubscriptionForEndpoint,
    outsideBoundaries: outsideGeographicBoundaries(41.0151, 28.9795, 'TUR', 'Ankara'),
  },
  413: { tooLarge: `${ErrorMessages.payloadTooLarge} (limit 1048576 bytes)` },
  415: { mediaType: ErrorMessages.unsupportedMediaType },
  429: { limit: ErrorMessages.subscriptionLimitExceeded, rate: ErrorMessages.tooManyRequests },
  500: { failure: ErrorMessages.invocationFailed },
};

/** components.responses: one ErrorResponse answer per status, with the contract's messages as examples. */
export function errorResponseComponents(): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [code, name] of Object.entries(ERROR_RESPONSE_NAMES)) {
    const status = Number(code);
    const examples = Object.fromEntries(
      Object.entries(EXAMPLE_MESSAGES[status] ?? {}).map(([key, message]) => [
        key,
        {
          value: {
            timestamp: '2026-11-21T14:03:07.123456789',
            status,
            error: reasonPhrase(status),
            message,
            path: '/v1/precipitations/geometry',
          },
        },
      ]),
    );
    responses[name] = {
      description: reasonPhrase(status),
      ...(status === 429
        ? { headers: { 'Retry-After': { description: 'seconds until the limit resets', schema: { type: 'integer' } }, ...QUOTA_HEADERS } }
        : {}),
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ErrorResponse' },
          ...(Object.keys(examples).length > 0 ? { examples } : {}),
        },
      },
    };
  }
  return responses;
}
