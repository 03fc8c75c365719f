import type { RecoveryMode, RecoveryState } from '../domain/recovery.js';

/** A recovery as stored: written by the instance that runs its queuing only. */
export interface RecoveryJob {
  id: string;
  accountId: string;
  mode: RecoveryMode;
  since: Date;
  until: Date;
  /** RUNNING (DONE is read from the progress), or FAILED. */
  state: Exclude<RecoveryState, 'DONE'>;
  /** Callbacks the recovery sends. */
  total: number;
  /** Of them, queued so far. */
  queued: number;
  byType: Record<string, number>;
  createdAt: Date;
  /** The queuing instance's last sign of life: a job still queuing whose heartbeat stopped was interrupted. */
  heartbeatAt: Date;
  error: string | null;
}

export interface RecoveryJobStore {
  create(job: RecoveryJob): Promise<void>;
  update(jobId: string, change: Partial<Pick<RecoveryJob, 'state' | 'queued' | 'heartbeatAt' | 'error'>>): Promise<void>;
  get(jobId: string): Promise<RecoveryJob | null>;
}
