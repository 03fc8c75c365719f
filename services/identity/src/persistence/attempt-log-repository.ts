import type { Collection } from 'mongodb';
import type { AttemptEntry, AttemptLogRepository } from '../ports/repositories.js';
import type { AttemptDoc } from './documents.js';

export class MongoAttemptLogRepository implements AttemptLogRepository {
  constructor(private readonly attempts: Collection<AttemptDoc>) {}

  async add(entries: readonly AttemptEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.attempts.insertMany(entries.map(({ id, ...rest }) => ({ _id: id, ...rest })));
  }

  async timesAfter(key: string, after: Date): Promise<Date[]> {
    const docs = await this.attempts
      .find({ key, at: { $gt: after } }, { projection: { at: 1 } })
      .sort({ at: 1, _id: 1 })
      .toArray();
    return docs.map((doc) => doc.at);
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.attempts.deleteMany({ _id: { $in: [...ids] } });
  }

  async clear(key: string): Promise<void> {
    await this.attempts.deleteMany({ key });
  }

  async purgeExpired(now: Date): Promise<number> {
    return (await this.attempts.deleteMany({ expiresAt: { $lt: now } })).deletedCount;
  }
}
