import type { Collection } from 'mongodb';
import type { RefreshTokenRecord, RefreshTokenRepository } from '../ports/repositories.js';
import { claimOnce, isClaimed, purgeClaims } from './claims.js';
import { compact, type ClaimDoc, type RefreshTokenDoc } from './documents.js';

const ROTATION = 'refresh-rotation';
const FAMILY_REVOKED = 'refresh-family-revoked';
/** Kept longer than any refresh token lives, so no token of a revoked family outlives its revocation. */
const FAMILY_REVOCATION_RETENTION_MS = 400 * 24 * 3600_000;

function toRecord(doc: RefreshTokenDoc): RefreshTokenRecord {
  const { _id, ...rest } = doc;
  return compact({ tokenId: _id, ...rest });
}

/**
 * Refresh tokens, with the two facts that must never be lost to a race kept as claims: "this token
 * was rotated" and "this family was revoked". The `rotatedAt`/`revokedAt` fields on the tokens are
 * written too, for operators reading the collection, but decisions rest on the claims.
 */
export class MongoRefreshTokenRepository implements RefreshTokenRepository {
  constructor(
    private readonly tokens: Collection<RefreshTokenDoc>,
    private readonly claims: Collection<ClaimDoc>,
  ) {}

  async insert(record: RefreshTokenRecord): Promise<void> {
    const { tokenId, ...rest } = record;
    await this.tokens.insertOne(compact({ _id: tokenId, ...rest }));
  }

  async findById(tokenId: string): Promise<RefreshTokenRecord | undefined> {
    const doc = await this.tokens.findOne({ _id: tokenId });
    if (!doc) return undefined;
    const record = toRecord(doc);
    if (!record.revokedAt && (await isClaimed(this.claims, FAMILY_REVOKED, record.familyId))) {
      const claim = await this.claims.findOne({ _id: `${FAMILY_REVOKED}:${record.familyId}` });
      record.revokedAt = claim?.at ?? new Date(0);
    }
    return record;
  }

  async markRotated(tokenId: string, now: Date, retainUntil: Date): Promise<boolean> {
    if (!(await claimOnce(this.claims, ROTATION, tokenId, now, retainUntil))) return false;
    await this.tokens.updateOne({ _id: tokenId }, { $set: { rotatedAt: now } });
    return true;
  }

  async revokeFamily(familyId: string, now: Date): Promise<void> {
    await claimOnce(this.claims, FAMILY_REVOKED, familyId, now, new Date(now.getTime() + FAMILY_REVOCATION_RETENTION_MS));
    await this.tokens.updateMany({ familyId, revokedAt: { $exists: false } }, { $set: { revokedAt: now } });
  }

  isFamilyRevoked(familyId: string): Promise<boolean> {
    return isClaimed(this.claims, FAMILY_REVOKED, familyId);
  }

  async revokeAllOfUser(userId: string, now: Date): Promise<void> {
    const families: string[] = await this.tokens.distinct('familyId', { userId, revokedAt: { $exists: false } });
    for (const familyId of families) await this.revokeFamily(familyId, now);
  }

  async purgeExpired(now: Date): Promise<number> {
    const tokens = (await this.tokens.deleteMany({ expiresAt: { $lt: now } })).deletedCount;
    const claims = (await purgeClaims(this.claims, ROTATION, now)) + (await purgeClaims(this.claims, FAMILY_REVOKED, now));
    return tokens + claims;
  }
}
