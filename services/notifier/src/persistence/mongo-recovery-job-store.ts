import type { Collection, Db } from 'mongodb';
import type { RecoveryJob, RecoveryJobStore } from '../ports/recovery-job-store.js';
import { COLLECTIONS } from './collections.js';

/** Counts per callback type as a list: the types contain dots, which field names may not. */
type JobDocument = Omit<RecoveryJob, 'id' | 'byType'> & { _id: string; byType: Array<{ type: string; count: number }> };

/** Recovery jobs by id: each written by the one instance that queues it, so plain updates suffice. */
export class MongoRecoveryJobStore implements RecoveryJobStore {
  private readonly jobs: Collection<JobDocument>;

  constructor(db: Db) {
    this.jobs = db.collection<JobDocument>(COLLECTIONS.recoveryJobs);
  }

  async create(job: RecoveryJob): Promise<void> {
    const { id, byType, ...rest } = job;
    await this.jobs.insertOne({ _id: id, ...rest, byType: Object.entries(byType).map(([type, count]) => ({ type, count })) });
  }

  async update(jobId: string, change: Partial<Pick<RecoveryJob, 'state' | 'queued' | 'heartbeatAt' | 'error'>>): Promise<void> {
    await this.jobs.updateOne({ _id: jobId }, { $set: change });
  }

  async get(jobId: string): Promise<RecoveryJob | null> {
    const doc = await this.jobs.findOne({ _id: jobId });
    if (!doc) return null;
    const { _id, byType, ...rest } = doc;
    return { id: _id, ...rest, byType: Object.fromEntries(byType.map(({ type, count }) => [type, count])) };
  }
}
