import { DeliveryDetail, DeliveryPage, DeliveryPageRequest, NotificationIdParams } from '../schemas/deliveries.js';
import { AccountQuery, RotateSecretQuery, StoredWebhook, WebhookSigningSecrets, WebhookUpdateRequest } from '../schemas/webhook.js';
import { WebhookHealth } from '../schemas/webhook-health.js';
import { RecoverAnswer, RecoverRequest, RecoveryJob, RecoveryJobParams } from '../schemas/webhook-recovery.js';
import type { ErrorStatus, RouteSpec } from '../contract/route-spec.js';
import { RESOURCE_ERRORS } from './error-sets.js';

/** 503: the notifier, which stores webhooks and deliveries, or its database does not answer. */
const ERRORS: readonly ErrorStatus[] = [...RESOURCE_ERRORS, 503];
/** Test deliveries and redeliveries are capped (http/rate-limits.ts, the notifier's per-delivery cap). */
const MANUAL_DELIVERY_ERRORS: readonly ErrorStatus[] = [...RESOURCE_ERRORS, 429, 503];

const owner = 'any authenticated caller with an account (API_USER and above), on their own account; ADMIN may name another with ?accountId=. ' + 'Not metered';

const NO_ACCOUNT = 'A caller without an account gets 403; an account without a stored webhook gets 404.';

/** The account's stored webhook (interface.md 2.2 and section 3, rule 4): one per account, kept by the notifier. */
export const webhookRoutes: readonly RouteSpec[] = [
  {
    operationId: 'getWebhook',
    method: 'get',
    path: '/v1/alarms/webhooks',
    summary: "The account's stored webhook",
    description: `Without authentication.type and with the password masked, plus whether deliveries are attempted. ${NO_ACCOUNT}`,
    tag: 'webhooks',
    roles: owner,
    authenticated: true,
    request: { query: AccountQuery },
    response: { status: 200, description: 'the stored webhook', schema: StoredWebhook },
    errors: ERRORS,
  },
  {
    operationId: 'updateWebhook',
    method: 'put',
    path: '/v1/alarms/webhooks/update',
    summary: "Change the account's stored webhook",
    description:
      'Only one webhook is stored per account; registering again does not change it, this operation does. The body is the whole ' +
      'webhook: absent fields take their defaults. A password of "******" keeps the stored secret when the type is unchanged, and ' +
      'an authentication without type keeps the stored type, so what GET /v1/alarms/webhooks answers can be sent back. Bounds of ' +
      'deliveryPolicy (timeout milliseconds, maxRetries, retryDelay seconds), the URL (http/https, no private address) and reserved ' +
      `header names are 400s naming the field and unit. Status and signing secret are unchanged. ${NO_ACCOUNT}`,
    tag: 'webhooks',
    roles: owner,
    authenticated: true,
    request: { query: AccountQuery, body: WebhookUpdateRequest },
    response: { status: 200, description: 'the stored webhook, password masked', schema: StoredWebhook },
    errors: ERRORS,
  },
  {
    operationId: 'getWebhookSigningSecret',
    method: 'get',
    path: '/v1/alarms/webhooks/signing-secret',
    summary: 'The signing secrets of the stored webhook',
    description:
      'Every callback carries the Standard Webhooks headers webhook-id, webhook-timestamp and webhook-signature ' +
      '(v1,<base64 HMAC-SHA256 of "id.timestamp.body" keyed with the base64-decoded part of the secret after whsec_>). ' +
      `During a rotation callbacks carry a signature for each secret. ${NO_ACCOUNT}`,
    tag: 'webhooks',
    roles: owner,
    authenticated: true,
    request: { query: AccountQuery },
    response: { status: 200, description: 'the current and (during a rotation) the previous secret', schema: WebhookSigningSecrets },
    errors: ERRORS,
  },
  {
    operationId: 'rotateWebhookSigningSecret',
    method: 'post',
    path: '/v1/alarms/webhooks/rotate-secret',
    summary: 'Rotate the signing secret of the stored webhook',
    description: `A new secret signs from now on; the previous one keeps signing too for previousSecretValidSeconds (default 24 h). ${NO_ACCOUNT}`,
    tag: 'webhooks',
    roles: owner,
    authenticated: true,
    request: { query: RotateSecretQuery },
    response: { status: 200, description: 'the new and the previous secret', schema: WebhookSigningSecrets },
    errors: ERRORS,
  },
  {
    operationId: 'enableWebhook',
    method: 'post',
    path: '/v1/alarms/webhooks/enable',
    summary: 'Re-enable the stored webhook',
    description:
      'A webhook is disabled at once by a 410 Gone answer, or after failing without a success for the configured period (5 days by ' +
      `default). Enabling it clears the failure run; deliveries that died meanwhile can then be redelivered. ${NO_ACCOUNT}`,
    tag: 'webhooks',
    roles: owner,
    authenticated: true,
    request: { query: AccountQuery },
    response: { status: 200, description: 'the stored webhook, enabled', schema: StoredWebhook },
    errors: ERRORS,
  },
  {
    operationId: 'sendWebhookTest',
    method: 'post',
    path: '/v1/alarms/webhooks/test',
    summary: 'Send a test delivery to the stored webhook',
    description:
      'Sends {"id", "type": "TEST", "accountId", "message", "timeEpochMillis"} once, signed and authenticated like every callback, ' +
      `without retries; its outcome appears in the delivery log (GET /v1/deliveries/{notificationId}). ` +
      `Test deliveries and redeliveries together count against an hourly limit per account (429 with Retry-After). ${NO_ACCOUNT}`,
    tag: 'webhooks',
    roles: owner,
    authenticated: true,
    request: { query: AccountQuery },
    response: { status: 202, description: 'the test delivery, scheduled now', schema: DeliveryDetail },
    errors: MANUAL_DELIVERY_ERRORS,
  },
];

/** The delivery log of the account's webhook and its replay (notifier issue, item 3). */
export const deliveryRoutes: readonly RouteSpec[] = [
  {
    operationId: 'getWebhookHealth',
    method: 'get',
    path: '/v1/alarms/webhooks/health',
    summary: 'How the stored webhook is doing',
    description:
      'Its state (ENABLED, FAILING with the failures in a row and since when, DISABLED with the reason); attempts, success rate and the ' +
      "receiver's latency percentiles over the last hour, 24 hours and 7 days; failures of the last 7 days grouped by class (timeout, " +
      'refused, DNS, TLS, SSRF policy, 3xx/4xx/5xx by status, acknowledgement) with their first and last time and an example; the age of ' +
      'the weather when callbacks reached the receiver (receipt minus the time of the weather event); how many deliveries wait and the ' +
      'next retry. Kept as counters while attempts end, so the answer does not grow with the delivery log. Percentiles are exact to ' +
      `their histogram bucket; windows are whole minutes (last hour) or whole hours. ${NO_ACCOUNT}`,
    tag: 'webhooks',
    roles: owner,
    authenticated: true,
    request: { query: AccountQuery },
    response: { status: 200, description: 'the health of the stored webhook', schema: WebhookHealth },
    errors: ERRORS,
  },
  {
    operationId: 'recoverWebhookDeliveries',
    method: 'post',
    path: '/v1/alarms/webhooks/recover',
    summary: 'Send again what the webhook missed',
    description:
      'Chooses the deliveries created in [since, until) by mode and sends each once more as a background job (202; follow it with ' +
      'GET /v1/alarms/webhooks/recover/{jobId}), or with dryRun only counts them per callback type (200). Recovered callbacks keep ' +
      'their original webhook-id and carry `recovered: true` in the body and the job id in the webhook-recovered header, so receivers ' +
      'that de-duplicate on the id see a repeat. They go out through the same queue and per-endpoint concurrency as live traffic. ' +
      "Each call, dry runs included, counts against the account's hourly cap of manual sends (with test deliveries and redeliveries; " +
      '429 beyond it); one recovery sends at most 100,000 callbacks (400 naming since beyond it). A disabled webhook is enabled first ' +
      `(400 naming webhook). ${NO_ACCOUNT}`,
    tag: 'webhooks',
    roles: owner,
    authenticated: true,
    request: { query: AccountQuery, body: RecoverRequest },
    response: { status: 202, description: 'the recovery started', schema: RecoverAnswer },
    otherResponses: { 200: { description: 'dryRun: what a recovery would send', schema: RecoverAnswer } },
    errors: MANUAL_DELIVERY_ERRORS,
  },
  {
    operationId: 'getWebhookRecovery',
    method: 'get',
    path: '/v1/alarms/webhooks/recover/{jobId}',
    summary: 'Progress of a recovery',
    description: `Queued, sent and failed so far; DONE once every callback was sent or failed. Another account's job id answers 404. ${NO_ACCOUNT}`,
    tag: 'webhooks',
    roles: owner,
    authenticated: true,
    request: { params: RecoveryJobParams, query: AccountQuery },
    response: { status: 200, description: 'the recovery', schema: RecoveryJob },
    errors: ERRORS,
  },
  {
    operationId: 'getDeliveryPage',
    method: 'post',
    path: '/v1/deliveries/page',
    summary: 'List the webhook deliveries of the account',
    description: 'Newest first, without attempts and payload; filter by registration, status and creation time.',
    tag: 'deliveries',
    roles: owner,
    authenticated: true,
    request: { query: AccountQuery, body: DeliveryPageRequest },
    response: { status: 200, description: 'a page of deliveries', schema: DeliveryPage },
    errors: ERRORS,
  },
  {
    operationId: 'getDelivery',
    method: 'get',
    path: '/v1/deliveries/{notificationId}',
    summary: 'A webhook delivery with its attempts',
    description:
      'Each attempt: URL, HTTP status, the response body (at most 20,000 bytes, untrusted: never render it as HTML), duration, ' +
      "attempt number, trigger and the next attempt's time. Another account's notification id answers 404.",
    tag: 'deliveries',
    roles: owner,
    authenticated: true,
    request: { params: NotificationIdParams, query: AccountQuery },
    response: { status: 200, description: 'the delivery with its attempt log', schema: DeliveryDetail },
    errors: ERRORS,
  },
  {
    operationId: 'redeliverDelivery',
    method: 'post',
    path: '/v1/deliveries/{notificationId}/redeliver',
    summary: 'Redeliver a webhook delivery now',
    description:
      'One manual attempt now with the same webhook-id (receivers de-duplicate on it), whatever the state: a pending delivery is ' +
      'moved forward and keeps its retries, a succeeded or dead one gets exactly one attempt. 400 while the webhook is disabled ' +
      "(enable it first); another account's notification id answers 404. Capped: redeliveries and test deliveries together count " +
      'against an hourly limit per account (429 with Retry-After), and one delivery has at most a few manual redeliveries ' +
      '(5 by default; 429 "Redelivery limit reached" after that).',
    tag: 'deliveries',
    roles: owner,
    authenticated: true,
    request: { params: NotificationIdParams, query: AccountQuery },
    response: { status: 202, description: 'the delivery, its manual attempt scheduled', schema: DeliveryDetail },
    errors: MANUAL_DELIVERY_ERRORS,
  },
];
