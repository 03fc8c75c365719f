import type { HealthPort, HealthReport } from './health-port.js';

/**
 * How long one round of dependency checks answers /v1/health and /v1/health/ready. Anyone may call
 * /v1/health, as often as they like: within this window every call shares one round (six gRPC health
 * checks, Kafka and the database), so a flood of calls costs the dependencies nothing. Short enough
 * that a probe polling every few seconds sees a change on its next poll.
 */
export const HEALTH_CACHE_MS = 1_000;

/**
 * A single-flight, briefly cached view of `inner`: concurrent checks share the one in flight, and
 * its report answers every check for `ttlMs` after it completes. A check that throws is shared by
 * the callers waiting on it but not kept, so the next call tries again.
 */
export class CachedHealth implements HealthPort {
  private inFlight: Promise<HealthReport> | undefined;
  private last: { report: HealthReport; atMs: number } | undefined;

  constructor(
    private readonly inner: HealthPort,
    private readonly ttlMs: number = HEALTH_CACHE_MS,
    private readonly nowMs: () => number = Date.now,
  ) {}

  check(): Promise<HealthReport> {
    if (this.last && this.nowMs() - this.last.atMs < this.ttlMs) return Promise.resolve(this.last.report);
    this.inFlight ??= this.inner
      .check()
      .then((report) => {
        this.last = { report, atMs: this.nowMs() };
        return report;
      })
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }
}
