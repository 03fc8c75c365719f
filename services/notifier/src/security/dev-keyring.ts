import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';
import { COLLECTIONS } from '../persistence/collections.js';

const KEYRING_ID = 'credential-keyring';
/** Kid of the development key; an operator moving to a real key keeps old records readable with `new:<key>,dev:<this key>`. */
export const DEV_KID = 'dev';

interface DevSettingDocument {
  _id: string;
  value: string;
  createdAt: Date;
}

/**
 * The credential keyring of a stack started without CREDENTIAL_ENCRYPTION_KEY: generated once and kept
 * in the notifier's own database, so restarts and every replica decrypt what the others encrypted. It
 * sits next to the ciphertexts it protects, which is exactly why production must set the variable.
 * The first writer wins through the unique `_id`; every other start reads its key.
 */
export async function loadOrCreateDevKeyring(db: Db): Promise<{ keyring: string; created: boolean }> {
  const settings = db.collection<DevSettingDocument>(COLLECTIONS.devSettings);
  const existing = await settings.findOne({ _id: KEYRING_ID });
  if (existing) return { keyring: existing.value, created: false };
  const keyring = `${DEV_KID}:${randomBytes(32).toString('base64')}`;
  try {
    await settings.insertOne({ _id: KEYRING_ID, value: keyring, createdAt: new Date() });
    return { keyring, created: true };
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const winner = await settings.findOne({ _id: KEYRING_ID });
    if (!winner) throw error;
    return { keyring: winner.value, created: false };
  }
}
