import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';
import { COLLECTIONS } from './collections.js';

const KEYRING_ID = 'credential-keyring';

interface DevSettingDocument {
  _id: string;
  value: string;
  createdAt: Date;
}

/**
 * The credential keyring of a stack started without CREDENTIAL_ENCRYPTION_KEY, kept in the notifier's
 * own database so that restarts and every replica decrypt what the others encrypted. It sits next to
 * the ciphertexts it protects, which is exactly why production must set the variable.
 */
export class MongoDevKeyring {
  private readonly settings: Collection<DevSettingDocument>;

  constructor(db: Db) {
    this.settings = db.collection<DevSettingDocument>(COLLECTIONS.devSettings);
  }

  /**
   * The stored keyring, or a new one from `create` stored now. The first writer wins through the
   * unique `_id`; every other start, however close in time, reads the winner's.
   */
  async loadOrCreate(create: () => string): Promise<{ keyring: string; created: boolean }> {
    const existing = await this.settings.findOne({ _id: KEYRING_ID });
    if (existing) return { keyring: existing.value, created: false };
    const keyring = create();
    try {
      await this.settings.insertOne({ _id: KEYRING_ID, value: keyring, createdAt: new Date() });
      return { keyring, created: true };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      const winner = await this.settings.findOne({ _id: KEYRING_ID });
      if (!winner) throw error;
      return { keyring: winner.value, created: false };
    }
  }
}
