import type { Collection, Filter } from 'mongodb';
import type { OneTimeTokenPurpose, OneTimeTokenRecord, OneTimeTokenRepository } from '../ports/repositories.js';
import { claimOnce, isClaimed, purgeClaims } from './claims.js';
import { compact, type ClaimDoc, type OneTimeTokenDoc } from './documents.js';

const USE = 'one-time-token-use';

export class MongoOneTimeTokenRepository implements OneTimeTokenRepository {
  constructor(
    private readonly tokens: Collection<OneTimeTokenDoc>,
    private readonly claims: Collection<ClaimDoc>,
  ) {}

  async insert(record: OneTimeTokenRecord): Promise<void> {
    const { tokenHash, ...rest } = record;
    await this.tokens.insertOne(compact({ _id: tokenHash, ...rest }));
  }

  async findByHash(tokenHash: string): Promise<OneTimeTokenRecord | undefined> {
    const doc = await this.tokens.findOne({ _id: tokenHash });
    if (!doc) return undefined;
    const { _id, ...rest } = doc;
    const record: OneTimeTokenRecord = compact({ tokenHash: _id, ...rest });
    // A use claimed by a caller that stopped before writing usedAt still counts as a use.
    if (!record.usedAt && (await isClaimed(this.claims, USE, tokenHash))) record.usedAt = record.createdAt;
    return record;
  }

  async consume(tokenHash: string, now: Date): Promise<boolean> {
    const doc = await this.tokens.findOne({ _id: tokenHash }, { projection: { expiresAt: 1 } });
    if (!doc) return false;
    if (!(await claimOnce(this.claims, USE, tokenHash, now, doc.expiresAt))) return false;
    await this.tokens.updateOne({ _id: tokenHash }, { $set: { usedAt: now } });
    return true;
  }

  async invalidateAll(userId: string, now: Date, purpose?: OneTimeTokenPurpose): Promise<void> {
    const filter: Filter<OneTimeTokenDoc> = { userId, usedAt: { $exists: false } };
    if (purpose) filter.purpose = purpose;
    await this.tokens.updateMany(filter, { $set: { usedAt: now } });
  }

  async purgeExpired(now: Date): Promise<number> {
    const tokens = (await this.tokens.deleteMany({ expiresAt: { $lt: now } })).deletedCount;
    return tokens + (await purgeClaims(this.claims, USE, now));
  }
}
