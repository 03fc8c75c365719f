import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * Webhook delivery metrics, labelled by endpoint id only: one endpoint per account keeps the
 * cardinality bounded by the number of accounts, and no URL or customer text becomes a label.
 */
export class DeliveryMetrics {
  readonly attempted: Counter<'endpoint_id'>;
  readonly succeeded: Counter<'endpoint_id'>;
  readonly failed: Counter<'endpoint_id'>;
  readonly dead: Counter<'endpoint_id'>;
  readonly inFlight: Gauge<'endpoint_id'>;
  readonly attemptDuration: Histogram<'endpoint_id'>;
  readonly deliveryLatency: Histogram<'endpoint_id'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.attempted = new Counter({
      name: 'notifier_webhook_attempts_total',
      help: 'Webhook delivery attempts started.',
      labelNames: ['endpoint_id'],
      registers,
    });
    this.succeeded = new Counter({
      name: 'notifier_webhook_attempts_succeeded_total',
      help: 'Webhook delivery attempts acknowledged with a 2xx.',
      labelNames: ['endpoint_id'],
      registers,
    });
    this.failed = new Counter({
      name: 'notifier_webhook_attempts_failed_total',
      help: 'Webhook delivery attempts that failed (non-2xx, bad acknowledgement, timeout, refused).',
      labelNames: ['endpoint_id'],
      registers,
    });
    this.dead = new Counter({
      name: 'notifier_webhook_deliveries_dead_total',
      help: 'Webhook deliveries given up and marked dead.',
      labelNames: ['endpoint_id'],
      registers,
    });
    this.inFlight = new Gauge({
      name: 'notifier_webhook_attempts_in_flight',
      help: 'Webhook delivery attempts waiting for the receiver right now.',
      labelNames: ['endpoint_id'],
      registers,
    });
    this.attemptDuration = new Histogram({
      name: 'notifier_webhook_attempt_duration_seconds',
      help: 'Duration of one webhook HTTP attempt, in seconds.',
      labelNames: ['endpoint_id'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.deliveryLatency = new Histogram({
      name: 'notifier_webhook_delivery_latency_seconds',
      help: 'From alarm.triggered to the acknowledged delivery, in seconds (retries included).',
      labelNames: ['endpoint_id'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600],
      registers,
    });
  }
}
