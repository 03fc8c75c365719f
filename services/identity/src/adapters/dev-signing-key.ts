import { isDuplicateKeyError } from '@stormhook/mongo';
import type { Db } from 'mongodb';
import { COLLECTIONS } from '../persistence/collections.js';
import type { SigningKeyDoc } from '../persistence/documents.js';
import { generateSigningKey, signingKeyFromPem, type SigningKey } from '../security/jwt.js';

const ACCESS_TOKENS = 'access-tokens';

/**
 * The signing key of a stack started without IDENTITY_JWT_PRIVATE_KEY: generated once and kept in
 * identity's own database, so restarts (and every replica) sign with the same key and sessions
 * survive. The first writer wins through the unique `_id`; every other start reads its key.
 */
export async function loadOrCreateDevSigningKey(db: Db): Promise<{ key: SigningKey; created: boolean }> {
  const keys = db.collection<SigningKeyDoc>(COLLECTIONS.signingKeys);
  const existing = await keys.findOne({ _id: ACCESS_TOKENS });
  if (existing) return { key: signingKeyFromPem(existing.privateKeyPem), created: false };
  const fresh = generateSigningKey();
  const privateKeyPem = fresh.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  try {
    await keys.insertOne({ _id: ACCESS_TOKENS, privateKeyPem, createdAt: new Date() });
    return { key: fresh, created: true };
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const winner = await keys.findOne({ _id: ACCESS_TOKENS });
    if (!winner) throw error;
    return { key: signingKeyFromPem(winner.privateKeyPem), created: false };
  }
}
