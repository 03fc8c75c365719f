import { notificationV1 } from '@stormhook/proto';
import { failureClassMessage } from './failure-class-mapping.js';
import type { WindowFigures } from '../domain/webhook-stats.js';
import type { WebhookHealthView, WebhookState } from '../usecases/webhook-health.js';

const STATES: Readonly<Record<WebhookState, notificationV1.WebhookHealthState>> = {
  ENABLED: 'WEBHOOK_HEALTH_STATE_ENABLED',
  FAILING: 'WEBHOOK_HEALTH_STATE_FAILING',
  DISABLED: 'WEBHOOK_HEALTH_STATE_DISABLED',
};

const epoch = (value: Date | number | null): number => (value === null ? 0 : typeof value === 'number' ? value : value.getTime());
/** Present only when known: the message's optional fields stay unset for "no attempts". */
const optional = <K extends string>(key: K, value: number | null): Partial<Record<K, number>> =>
  value === null ? {} : ({ [key]: value } as Record<K, number>);

function windowMessage(window: WindowFigures): notificationV1.WebhookHealthWindow {
  return notificationV1.WebhookHealthWindow.create({
    attempts: window.attempts,
    succeeded: window.succeeded,
    failed: window.failed,
    ...optional('successRate', window.successRate),
    ...optional('latencyP50Ms', window.latencyMs.p50),
    ...optional('latencyP95Ms', window.latencyMs.p95),
    ...optional('latencyP99Ms', window.latencyMs.p99),
    ...optional('weatherAgeP50Ms', window.weatherAgeMs.p50),
    ...optional('weatherAgeP99Ms', window.weatherAgeMs.p99),
  });
}

export function webhookHealthMessage(view: WebhookHealthView): notificationV1.WebhookHealthResponse {
  const { figures } = view;
  return notificationV1.WebhookHealthResponse.create({
    state: STATES[view.state],
    failingSinceEpochMs: epoch(view.failingSince),
    failuresInRow: view.state === 'ENABLED' ? 0 : figures.failuresInRow,
    disabledReason: view.disabledReason ?? '',
    disabledAtEpochMs: epoch(view.disabledAt),
    lastHour: windowMessage(figures.lastHour),
    lastDay: windowMessage(figures.last24Hours),
    lastWeek: windowMessage(figures.last7Days),
    failures: figures.failures.map((group) =>
      notificationV1.WebhookFailureGroup.create({
        failureClass: failureClassMessage(group.failureClass),
        status: group.status ?? 0,
        count: group.count,
        firstEpochMs: group.firstEpochMs,
        lastEpochMs: group.lastEpochMs,
        exampleNotificationId: group.example.notificationId,
        exampleAttemptNumber: group.example.attemptNumber,
        exampleResponseStatus: group.example.responseStatus ?? 0,
        exampleError: group.example.error,
      }),
    ),
    lastSuccessEpochMs: epoch(figures.lastSuccessAt),
    waitingDeliveries: figures.waiting,
    nextRetryEpochMs: epoch(figures.nextRetryAt),
    asOfEpochMs: view.asOf.getTime(),
  });
}
