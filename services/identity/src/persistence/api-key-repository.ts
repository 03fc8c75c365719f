import type { Collection } from 'mongodb';
import type { ApiKeyRecord, ApiKeyRepository } from '../ports/repositories.js';
import { compact, type ApiKeyDoc } from './documents.js';

function toRecord(doc: ApiKeyDoc): ApiKeyRecord {
  const { _id, ...rest } = doc;
  return compact({ keyId: _id, ...rest });
}

export class MongoApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly keys: Collection<ApiKeyDoc>) {}

  async insert(record: ApiKeyRecord): Promise<void> {
    const { keyId, ...rest } = record;
    await this.keys.insertOne(compact({ _id: keyId, ...rest }));
  }

  async findById(keyId: string): Promise<ApiKeyRecord | undefined> {
    const doc = await this.keys.findOne({ _id: keyId });
    return doc ? toRecord(doc) : undefined;
  }

  async listByUser(userId: string): Promise<ApiKeyRecord[]> {
    return (await this.keys.find({ userId }).sort({ createdAt: 1, _id: 1 }).toArray()).map(toRecord);
  }

  async revoke(keyId: string, userId: string, now: Date): Promise<boolean> {
    const result = await this.keys.updateOne({ _id: keyId, userId, revokedAt: { $exists: false } }, { $set: { revokedAt: now } });
    return result.modifiedCount === 1;
  }

  async remove(keyId: string): Promise<void> {
    await this.keys.deleteOne({ _id: keyId });
  }

  async touch(keyId: string, now: Date, minIntervalMs: number): Promise<void> {
    const stale = new Date(now.getTime() - minIntervalMs);
    await this.keys.updateOne({ _id: keyId, $or: [{ lastUsedAt: { $exists: false } }, { lastUsedAt: { $lt: stale } }] }, { $set: { lastUsedAt: now } });
  }
}
