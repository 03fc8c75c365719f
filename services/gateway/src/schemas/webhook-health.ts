import { enumNames, notificationV1 } from '@stormhook/proto';
import { epochMillis } from './common.js';
import { arrayOf, enumOf, named, openObject, type JsonSchema } from './json-schema.js';

export const WEBHOOK_HEALTH_STATES = enumNames(notificationV1.WebhookHealthState, 'WEBHOOK_HEALTH_STATE_');
export const WEBHOOK_FAILURE_CLASSES = enumNames(notificationV1.WebhookFailureClass, 'WEBHOOK_FAILURE_CLASS_');

const nullableMs = (description: string): JsonSchema => ({ type: ['integer', 'null'], format: 'int64', description });
const nullableEpoch = (description: string): JsonSchema => ({ type: ['integer', 'null'], format: 'int64', description: `epoch milliseconds: ${description}` });
const count = (description: string): JsonSchema => ({ type: 'integer', format: 'int64', minimum: 0, description });

const HealthWindow = named(
  'WebhookHealthWindow',
  openObject(
    {
      attempts: count('attempts that ended in the window'),
      succeeded: count('of them, successful'),
      failed: count('of them, failed'),
      successRate: { type: ['number', 'null'], minimum: 0, maximum: 1, description: 'succeeded / attempts; null without attempts' },
      latencyMs: openObject(
        {
          p50: nullableMs('median round trip of the receiver, milliseconds'),
          p95: nullableMs('95th percentile, milliseconds'),
          p99: nullableMs('99th percentile, milliseconds'),
        },
        ['p50', 'p95', 'p99'],
        { description: "the receiver's round trips (answers and timeouts); each figure is the upper bound of its histogram bucket, at most the largest seen" },
      ),
      weatherAgeMs: openObject({ p50: nullableMs('median, milliseconds'), p99: nullableMs('99th percentile, milliseconds') }, ['p50', 'p99'], {
        description:
          "age of the weather on receipt: the callback's receipt minus the time of the weather event it carries (successful callbacks, tests excluded)",
      }),
    },
    ['attempts', 'succeeded', 'failed', 'successRate', 'latencyMs', 'weatherAgeMs'],
  ),
);

const FailureGroup = named(
  'WebhookFailureGroup',
  openObject(
    {
      failureClass: enumOf(WEBHOOK_FAILURE_CLASSES, {
        description:
          'TIMEOUT, CONNECTION_REFUSED, DNS, TLS (handshake or certificate), SSRF_BLOCKED (the URL leads to a private address), CONNECTION_ERROR, ' +
          'HTTP_3XX (redirects are not followed), HTTP_4XX, HTTP_5XX, ACKNOWLEDGEMENT (a 2xx acknowledging another id or status)',
      }),
      status: { type: ['integer', 'null'], format: 'int32', description: 'the HTTP status of the HTTP classes; null for the others' },
      count: count('failed attempts of this class and status in the last 7 days'),
      firstEpochMs: epochMillis,
      lastEpochMs: epochMillis,
      example: openObject(
        {
          notificationId: { type: 'string', description: 'the delivery: GET /v1/deliveries/{notificationId} shows its attempts' },
          attemptNumber: { type: 'integer', format: 'int32' },
          responseStatusCode: { type: ['integer', 'null'], format: 'int32' },
          error: { type: 'string' },
        },
        ['notificationId', 'attemptNumber', 'responseStatusCode', 'error'],
        { description: 'the latest failure of the group' },
      ),
    },
    ['failureClass', 'status', 'count', 'firstEpochMs', 'lastEpochMs', 'example'],
  ),
);

export const WebhookHealth = named(
  'WebhookHealth',
  openObject(
    {
      state: enumOf(WEBHOOK_HEALTH_STATES, {
        description: 'ENABLED; FAILING: every attempt since failingSinceEpochMs failed; DISABLED: no attempts until POST /v1/alarms/webhooks/enable',
      }),
      failingSinceEpochMs: nullableEpoch('start of the current run of failures; null when none'),
      failuresInRow: count('failed attempts since the last success; 0 when ENABLED'),
      disabledReason: { type: ['string', 'null'], description: 'why it was disabled; null unless DISABLED' },
      disabledAtEpochMs: nullableEpoch('when it was disabled; null unless DISABLED'),
      lastHour: HealthWindow,
      last24Hours: HealthWindow,
      last7Days: HealthWindow,
      failures: arrayOf(FailureGroup, { description: 'failures of the last 7 days by class and status, most frequent first' }),
      lastSuccessEpochMs: nullableEpoch('the last successful attempt in the last 7 days; null when none'),
      waitingDeliveries: count('deliveries accepted and not yet finished (succeeded or given up)'),
      nextRetryEpochMs: nullableEpoch('the earliest scheduled retry; null when none'),
      asOfEpochMs: {
        ...epochMillis,
        description: 'when the figures were computed; attempts made by another notifier instance show up within its write interval (default 5 s)',
      },
    },
    [
      'state',
      'failingSinceEpochMs',
      'failuresInRow',
      'disabledReason',
      'disabledAtEpochMs',
      'lastHour',
      'last24Hours',
      'last7Days',
      'failures',
      'lastSuccessEpochMs',
      'waitingDeliveries',
      'nextRetryEpochMs',
      'asOfEpochMs',
    ],
  ),
);
