import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';
import type { JobLock } from '../ports/job-lock.js';
import { COLLECTIONS } from './collections.js';

interface LockDocument {
  _id: string;
  job: string;
  windowStartMs: number;
  owner: string;
  lockedAtMs: number;
}

export class MongoJobLock implements JobLock {
  private readonly collection: Collection<LockDocument>;

  constructor(
    db: Db,
    private readonly owner: string,
  ) {
    this.collection = db.collection<LockDocument>(COLLECTIONS.jobLocks);
  }

  async acquire(job: string, windowMs: number, nowMs: number): Promise<boolean> {
    const windowStartMs = Math.floor(nowMs / windowMs) * windowMs;
    try {
      await this.collection.insertOne({ _id: `${job}@${windowStartMs}`, job, windowStartMs, owner: this.owner, lockedAtMs: nowMs });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async purgeBefore(ms: number): Promise<number> {
    return (await this.collection.deleteMany({ lockedAtMs: { $lt: ms } })).deletedCount;
  }
}
