import { enumName, notificationV1 } from '@stormhook/proto';

/** The public name of a value the answer left unset (the zero value, or one this build does not know), as it has always been spelled. */
const UNSET = 'UNSPECIFIED';

/** 0 is the proto's "none" for times and status codes; the public answer says null. */
const orNull = (value: number): number | null => (value > 0 ? value : null);
const textOrNull = (value: string): string | null => (value === '' ? null : value);
/** A failure class's public name; null for UNSPECIFIED (a success, or none known). */
export const failureClassOrNull = (value: notificationV1.WebhookFailureClass): string | null => enumName(notificationV1.WebhookFailureClass, value) ?? null;

function attemptJson(attempt: notificationV1.DeliveryAttempt): Record<string, unknown> {
  return {
    attemptNumber: attempt.attemptNumber,
    trigger: enumName(notificationV1.AttemptTrigger, attempt.trigger) ?? UNSET,
    url: attempt.url,
    startedAtEpochMs: attempt.startedAtEpochMs,
    durationMs: attempt.durationMs,
    responseStatusCode: orNull(attempt.responseStatusCode),
    responseBody: attempt.responseBody,
    responseBodyTruncated: attempt.responseBodyTruncated,
    succeeded: attempt.succeeded,
    error: textOrNull(attempt.error),
    nextAttemptAtEpochMs: orNull(attempt.nextAttemptAtEpochMs),
    failureClass: failureClassOrNull(attempt.failureClass),
  };
}

/** The body we sent, as JSON; kept as text in the unlikely case it is not JSON. */
function payloadOf(payloadJson: string): unknown {
  if (payloadJson === '') return null;
  try {
    return JSON.parse(payloadJson) as unknown;
  } catch {
    return payloadJson;
  }
}

/** A delivery of the log; with `detail` its attempts and payload too. */
export function deliveryJson(delivery: notificationV1.Delivery | null | undefined, detail: boolean): Record<string, unknown> {
  if (!delivery) throw new Error('the notifier answered without a delivery');
  return {
    notificationId: delivery.notificationId,
    accountId: delivery.accountId,
    registrationId: textOrNull(delivery.registrationId),
    recipientId: textOrNull(delivery.recipientId),
    eventKind: delivery.eventKind,
    status: enumName(notificationV1.DeliveryStatus, delivery.status) ?? UNSET,
    test: delivery.test,
    attemptCount: delivery.attemptCount,
    nextAttemptAtEpochMs: orNull(delivery.nextAttemptAtEpochMs),
    createdAtEpochMs: delivery.createdAtEpochMs,
    finishedAtEpochMs: orNull(delivery.finishedAtEpochMs),
    lastResponseStatusCode: orNull(delivery.lastResponseStatusCode),
    callbackType: textOrNull(delivery.callbackType),
    lastFailureClass: failureClassOrNull(delivery.lastFailureClass),
    ...(detail ? { attempts: delivery.attempts.map(attemptJson), payload: payloadOf(delivery.payloadJson) } : {}),
  };
}
