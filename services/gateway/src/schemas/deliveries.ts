import { enumNames, notificationV1 } from '@stormhook/proto';
import { epochMillis, pageNumber, pageSize, uuid } from './common.js';
import { arrayOf, closedObject, enumOf, named, openObject, pathParams, type JsonSchema } from './json-schema.js';
import { WEBHOOK_EVENT_TYPES } from '@stormhook/webhooks';
import { WEBHOOK_FAILURE_CLASSES } from './webhook-health.js';

/** Public delivery states (the notifier's DeliveryStatus without its prefix). */
export const DELIVERY_STATUSES = enumNames(notificationV1.DeliveryStatus, 'DELIVERY_STATUS_');
export const ATTEMPT_TRIGGERS = enumNames(notificationV1.AttemptTrigger, 'ATTEMPT_TRIGGER_');

/** The page size used when a delivery-page request leaves it out. */
export const DEFAULT_DELIVERY_PAGE_SIZE = 20;

const nullableEpochMillis = (description: string): JsonSchema => ({ type: ['integer', 'null'], format: 'int64', description });

/**
 * Notification ids are opaque (`ntf_` + ULID from the notifier, or the matcher's stable ids); the
 * pattern only keeps path segments sane.
 */
export const NotificationIdParams = pathParams({
  notificationId: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,200}$', description: 'the notification id, also the webhook-id header of its callbacks' },
});

export const DeliveryPageRequest = named(
  'DeliveryPageRequest',
  closedObject(
    {
      registrationId: { ...uuid, description: 'only deliveries of this registration' },
      status: enumOf(DELIVERY_STATUSES, { description: 'only deliveries in this state' }),
      fromEpochMs: { ...epochMillis, description: 'only deliveries created at or after this time, epoch milliseconds' },
      toEpochMs: { ...epochMillis, minimum: 1, description: 'only deliveries created before this time, epoch milliseconds' },
      failureClass: enumOf(WEBHOOK_FAILURE_CLASSES, {
        description: "only deliveries whose last attempt failed with this class (GET /v1/alarms/webhooks/health's classes)",
      }),
      callbackType: enumOf(WEBHOOK_EVENT_TYPES, {
        description: 'only deliveries of this callback type (the payload type; deliveries stored before 2026-11-28 have none)',
      }),
      cursor: {
        type: 'string',
        minLength: 1,
        maxLength: 400,
        description: "the previous page's nextCursor: the page after it, stable while new deliveries arrive (pageNumber must be 0 or absent)",
      },
      pageNumber: { ...pageNumber, description: '0-based; default 0' },
      pageSize: { ...pageSize, description: `1 to 100; default ${DEFAULT_DELIVERY_PAGE_SIZE}` },
    },
    [],
    { description: 'every filter is optional; the newest deliveries come first' },
  ),
);

export const DeliveryAttempt = named(
  'DeliveryAttempt',
  openObject(
    {
      attemptNumber: { type: 'integer', format: 'int32', description: '1-based' },
      trigger: enumOf(ATTEMPT_TRIGGERS, { description: 'SCHEDULED: first attempt or automatic retry; MANUAL: redelivery or test' }),
      url: { type: 'string', description: 'URL called, an apiKey query parameter masked' },
      startedAtEpochMs: epochMillis,
      durationMs: { type: 'integer', format: 'int64', description: 'milliseconds' },
      responseStatusCode: { type: ['integer', 'null'], format: 'int32', description: 'HTTP status received; null when none (timeout, refused, blocked)' },
      responseBody: { type: 'string', description: "the receiver's answer, at most 20,000 bytes; untrusted, never render it as HTML" },
      responseBodyTruncated: { type: 'boolean' },
      succeeded: { type: 'boolean' },
      error: { type: ['string', 'null'], description: 'why the attempt failed; null on success' },
      failureClass: { type: ['string', 'null'], enum: [...WEBHOOK_FAILURE_CLASSES, null], description: 'why it failed, by class; null on success' },
      nextAttemptAtEpochMs: nullableEpochMillis('when the next attempt was scheduled after this one; null when none'),
    },
    ['attemptNumber', 'trigger', 'url', 'startedAtEpochMs', 'durationMs', 'succeeded'],
  ),
);

const deliveryFields: Record<string, JsonSchema> = {
  notificationId: { type: 'string', description: 'also the webhook-id header of every attempt: receivers de-duplicate on it' },
  accountId: uuid,
  registrationId: { type: ['string', 'null'], description: 'the registration that produced it; null for a test delivery' },
  recipientId: { type: ['string', 'null'] },
  eventKind: { type: 'string', description: 'LIGHTNING, THUNDERSTORM, PRECIPITATION, FORECAST ... or TEST' },
  status: enumOf(DELIVERY_STATUSES),
  test: { type: 'boolean' },
  attemptCount: { type: 'integer', format: 'int32' },
  nextAttemptAtEpochMs: nullableEpochMillis('when the next attempt is due; null when none is scheduled'),
  createdAtEpochMs: epochMillis,
  finishedAtEpochMs: nullableEpochMillis('when it succeeded or died; null while pending'),
  lastResponseStatusCode: { type: ['integer', 'null'], format: 'int32', description: 'HTTP status of the last attempt; null when none' },
  callbackType: {
    type: ['string', 'null'],
    description: "the payload's type (lightning.strike, thunderstorm.start, ...); null for deliveries stored before it was kept",
  },
  lastFailureClass: {
    type: ['string', 'null'],
    enum: [...WEBHOOK_FAILURE_CLASSES, null],
    description: "the class of the last attempt's failure; null when it succeeded or none was made",
  },
};
const deliveryRequired = ['notificationId', 'accountId', 'eventKind', 'status', 'test', 'attemptCount', 'createdAtEpochMs'];

export const DeliverySummary = named('DeliverySummary', openObject(deliveryFields, deliveryRequired));

export const DeliveryDetail = named(
  'DeliveryDetail',
  openObject(
    {
      ...deliveryFields,
      attempts: arrayOf(DeliveryAttempt, { description: 'the attempt log, oldest first' }),
      payload: { description: 'the JSON body sent (form-encoded callbacks send it as the payload field)' },
    },
    [...deliveryRequired, 'attempts'],
  ),
);

export const DeliveryPage = named(
  'DeliveryPage',
  openObject(
    {
      deliveries: arrayOf(DeliverySummary),
      totalRecords: { type: 'integer', format: 'int64' },
      pageNumber: { type: 'integer', format: 'int32' },
      pageSize: { type: 'integer', format: 'int32' },
      nextCursor: { type: ['string', 'null'], description: 'send it as cursor for the next page; null on the last page' },
    },
    ['deliveries', 'totalRecords', 'pageNumber', 'pageSize', 'nextCursor'],
  ),
);
