import { enumName, notificationV1 } from '@stormhook/proto';
import { failureClassOrNull } from './deliveries-json.js';

const orNull = (value: number): number | null => (value > 0 ? value : null);
const optionalNumber = (value: number | null | undefined): number | null => (value === undefined || value === null ? null : Number(value));

function windowJson(window: notificationV1.WebhookHealthWindow | null | undefined): Record<string, unknown> {
  const w = window ?? ({} as Partial<notificationV1.WebhookHealthWindow>);
  return {
    attempts: Number(w.attempts ?? 0),
    succeeded: Number(w.succeeded ?? 0),
    failed: Number(w.failed ?? 0),
    successRate: optionalNumber(w.successRate),
    latencyMs: { p50: optionalNumber(w.latencyP50Ms), p95: optionalNumber(w.latencyP95Ms), p99: optionalNumber(w.latencyP99Ms) },
    weatherAgeMs: { p50: optionalNumber(w.weatherAgeP50Ms), p99: optionalNumber(w.weatherAgeP99Ms) },
  };
}

/** The notifier's WebhookHealthResponse as the public WebhookHealth (schemas/webhook-health.ts). */
export function webhookHealthJson(health: notificationV1.WebhookHealthResponse): Record<string, unknown> {
  return {
    state: enumName(notificationV1.WebhookHealthState, health.state) ?? 'UNSPECIFIED',
    failingSinceEpochMs: orNull(Number(health.failingSinceEpochMs)),
    failuresInRow: Number(health.failuresInRow),
    disabledReason: health.disabledReason === '' ? null : health.disabledReason,
    disabledAtEpochMs: orNull(Number(health.disabledAtEpochMs)),
    lastHour: windowJson(health.lastHour),
    last24Hours: windowJson(health.lastDay),
    last7Days: windowJson(health.lastWeek),
    failures: health.failures.map((group) => ({
      failureClass: failureClassOrNull(group.failureClass),
      status: group.status > 0 ? group.status : null,
      count: Number(group.count),
      firstEpochMs: Number(group.firstEpochMs),
      lastEpochMs: Number(group.lastEpochMs),
      example: {
        notificationId: group.exampleNotificationId,
        attemptNumber: group.exampleAttemptNumber,
        responseStatusCode: group.exampleResponseStatus > 0 ? group.exampleResponseStatus : null,
        error: group.exampleError,
      },
    })),
    lastSuccessEpochMs: orNull(Number(health.lastSuccessEpochMs)),
    waitingDeliveries: Number(health.waitingDeliveries),
    nextRetryEpochMs: orNull(Number(health.nextRetryEpochMs)),
    asOfEpochMs: Number(health.asOfEpochMs),
  };
}
