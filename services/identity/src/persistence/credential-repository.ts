import type { Collection } from 'mongodb';
import type { CredentialRepository } from '../ports/repositories.js';
import type { CredentialDoc } from './documents.js';

export class MongoCredentialRepository implements CredentialRepository {
  constructor(private readonly credentials: Collection<CredentialDoc>) {}

  async passwordHash(userId: string): Promise<string | undefined> {
    const doc = await this.credentials.findOne({ _id: userId });
    return doc?.passwordHash;
  }

  async setPasswordHash(userId: string, phc: string, now: Date): Promise<void> {
    await this.credentials.updateOne({ _id: userId }, { $set: { passwordHash: phc, updatedAt: now } }, { upsert: true });
  }
}
