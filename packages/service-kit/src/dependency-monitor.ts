export type DependencyCheck = () => Promise<boolean>;

export interface DependencyMonitorOptions {
  checks: Record<string, DependencyCheck>;
  /** Told whenever the overall answer changes: true when every dependency answered. */
  onChange: (healthy: boolean, failing: string[]) => void;
  intervalMs?: number;
}

/**
 * Probes a service's dependencies (Kafka, the database) on an interval and reports when they come
 * and go, so the service's health answer follows them: a service whose database is down says so
 * instead of pretending, and says so again, without a restart, when it comes back.
 */
export class DependencyMonitor {
  private timer: NodeJS.Timeout | undefined;
  private last: boolean | undefined;
  private failing: string[] = [];

  constructor(private readonly opts: DependencyMonitorOptions) {}

  async checkNow(): Promise<boolean> {
    const entries = Object.entries(this.opts.checks);
    const results = await Promise.all(entries.map(async ([name, check]) => [name, await check().catch(() => false)] as const));
    this.failing = results.filter(([, ok]) => !ok).map(([name]) => name);
    const healthy = this.failing.length === 0;
    if (healthy !== this.last) {
      this.last = healthy;
      this.opts.onChange(healthy, this.failing);
    }
    return healthy;
  }

  get failingDependencies(): readonly string[] {
    return this.failing;
  }

  start(): void {
    const interval = this.opts.intervalMs ?? 5_000;
    const tick = () => {
      void this.checkNow().finally(() => {
        if (this.timer) this.timer = setTimeout(tick, interval).unref();
      });
    };
    this.timer = setTimeout(tick, interval).unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
