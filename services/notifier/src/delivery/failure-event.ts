import { alarmV1 } from '@stormhook/proto';
import type { Delivery, FailureReason } from '../domain/delivery.js';

const REASONS: Readonly<Record<FailureReason, alarmV1.DeliveryFailureReason>> = {
  'retries-exhausted': 'DELIVERY_FAILURE_REASON_RETRIES_EXHAUSTED',
  'endpoint-gone': 'DELIVERY_FAILURE_REASON_ENDPOINT_GONE',
  'endpoint-disabled': 'DELIVERY_FAILURE_REASON_ENDPOINT_DISABLED',
  'no-endpoint': 'DELIVERY_FAILURE_REASON_NO_ENDPOINT',
};

const KINDS: Readonly<Record<string, alarmV1.AlarmEventKind>> = {
  LIGHTNING: 'ALARM_EVENT_KIND_LIGHTNING',
  THUNDERSTORM: 'ALARM_EVENT_KIND_THUNDERSTORM',
  PRECIPITATION: 'ALARM_EVENT_KIND_PRECIPITATION',
  FORECAST: 'ALARM_EVENT_KIND_FORECAST',
};

/** The DeliveryFailed event of a dead delivery. */
export function deliveryFailedEvent(delivery: Delivery): alarmV1.DeliveryFailed {
  return alarmV1.DeliveryFailed.create({
    notificationId: delivery.id,
    accountId: delivery.accountId,
    registrationId: delivery.registrationId,
    endpointId: delivery.endpointId ?? '',
    reason: REASONS[delivery.failureReason ?? 'retries-exhausted'],
    attemptCount: delivery.attemptCount,
    lastStatusCode: delivery.lastResponseStatus ?? 0,
    lastError: (delivery.lastError ?? '').slice(0, 500),
    failedAtEpochMs: (delivery.finishedAt ?? delivery.updatedAt).getTime(),
    recipientId: delivery.recipientId,
    eventKind: KINDS[delivery.eventKind] ?? 'ALARM_EVENT_KIND_UNSPECIFIED',
  });
}
