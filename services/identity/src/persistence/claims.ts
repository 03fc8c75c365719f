import { isDuplicateKeyError } from '@stormhook/mongo';
import type { Collection } from 'mongodb';
import type { ClaimDoc } from './documents.js';

/** Records `<kind>:<id>` once; true for the single caller whose insert won (see {@link ClaimDoc}). */
export async function claimOnce(claims: Collection<ClaimDoc>, kind: string, id: string, now: Date, expiresAt: Date): Promise<boolean> {
  try {
    await claims.insertOne({ _id: `${kind}:${id}`, kind, at: now, expiresAt });
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

export async function isClaimed(claims: Collection<ClaimDoc>, kind: string, id: string): Promise<boolean> {
  return (await claims.countDocuments({ _id: `${kind}:${id}` }, { limit: 1 })) > 0;
}

export async function purgeClaims(claims: Collection<ClaimDoc>, kind: string, now: Date): Promise<number> {
  return (await claims.deleteMany({ kind, expiresAt: { $lt: now } })).deletedCount;
}
