/** The settings of one instance's delivery worker; service.ts fills them from the configuration. */
export interface DeliveryWorkerOptions {
  /** Lease owner name; unique per process (e.g. host name + pid + random). */
  instanceId: string;
  /** Attempts in flight at once on this instance. */
  concurrency: number;
  /** Attempts in flight at once per endpoint on this instance, so one slow receiver cannot take every slot. */
  perEndpointConcurrency: number;
  /**
   * Attempts in flight at once to an endpoint whose last request timed out. A dead endpoint is probed,
   * not flooded: each of its attempts costs a request, a timer and a recorded failure, and 32 at a time
   * (every retry round of its backlog) took CPU and writes from the healthy endpoints. The first
   * request that ends in time gives it its full concurrency back. Its deliveries wait in the queue
   * meanwhile (their retries may start later than scheduled; none is skipped or lost).
   */
  timingOutEndpointConcurrency: number;
  /** How long a claim holds a delivery; must exceed the largest attempt timeout. Another instance takes it over after. */
  leaseMs: number;
  /** How often the queue is read for work this instance did not queue itself (other instances, redeliveries). */
  pollIntervalMs: number;
  /** Period of the outbox sweep that publishes owed DeliveryFailed events. */
  outboxIntervalMs: number;
  /** Period of the look for holds of dead instances. */
  recoveryIntervalMs: number;
  /**
   * How long a fresh delivery waits for a slot of its endpoint before it goes to the queue. A busy
   * but healthy endpoint frees a slot within milliseconds, and sending from memory is many times
   * cheaper than a round trip through the queue. An endpoint whose recent requests ran into half its
   * timeout is not waited for: its work is queued at once, so a dead endpoint holds no acceptance
   * (and no Kafka record).
   */
  slotWaitMs: number;
}

export const DEFAULT_WORKER_OPTIONS: Omit<DeliveryWorkerOptions, 'instanceId'> = {
  concurrency: 512,
  perEndpointConcurrency: 32,
  timingOutEndpointConcurrency: 2,
  leaseMs: 60_000,
  pollIntervalMs: 1_000,
  outboxIntervalMs: 5_000,
  recoveryIntervalMs: 1_000,
  slotWaitMs: 1_000,
};
