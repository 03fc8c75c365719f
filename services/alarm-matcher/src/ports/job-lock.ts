/**
 * Lets one instance of many run a periodic job per time window: a unique insert keyed by job and
 * window (FerretDB updates are not atomic under concurrency; unique inserts are).
 */
export interface JobLock {
  /** True when this call took the job's window that holds `nowMs`. */
  acquire(job: string, windowMs: number, nowMs: number): Promise<boolean>;
}
