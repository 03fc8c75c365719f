import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** A secret as stored: AES-256-GCM ciphertext with everything needed to decrypt it except the key. */
export interface EncryptedValue {
  /** Which key of the keyring encrypted it, so keys can be rotated without a migration. */
  kid: string;
  /** 12-byte random nonce, base64. */
  iv: string;
  /** Ciphertext, base64. */
  ct: string;
  /** 16-byte GCM authentication tag, base64. */
  tag: string;
}

export interface CipherKeyring {
  /** Key id new values are encrypted with. */
  currentKid: string;
  /** Every key that may still be needed to decrypt, by id: 32 bytes each. */
  keys: ReadonlyMap<string, Buffer>;
}

const GCM_TAG_BYTES = 16;

/** Kid of a key given bare (no `kid:`), so that it can later sit in a keyring as `default:<key>`. */
export const DEFAULT_KID = 'default';

/**
 * Parses the operator's key: a bare base64 key (kid "default"), or `kid:base64key[,kid:base64key...]`
 * whose first entry is the current key. Base64 never contains ":", so the two forms cannot be confused.
 */
export function parseKeyring(text: string): CipherKeyring {
  const entries = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((entry) => (entry.includes(':') ? entry : `${DEFAULT_KID}:${entry}`));
  const keys = new Map<string, Buffer>();
  for (const entry of entries) {
    const at = entry.indexOf(':');
    if (at <= 0) throw new Error('credential key entries look like "<kid>:<base64 of 32 bytes>"');
    const key = Buffer.from(entry.slice(at + 1), 'base64');
    if (key.length !== 32) throw new Error(`credential key "${entry.slice(0, at)}" must be 32 bytes (base64), got ${key.length}`);
    keys.set(entry.slice(0, at), key);
  }
  const currentKid = entries[0]?.slice(0, entries[0].indexOf(':'));
  if (!currentKid) throw new Error('at least one credential key is required');
  return { currentKid, keys };
}

/**
 * Encrypts reversible secrets (webhook passwords, API keys, HMAC keys, signing secrets) with
 * AES-256-GCM: a random nonce per value, the key from outside the database, and associated data that
 * names the record and field, so that a ciphertext copied onto another record or field fails to decrypt.
 */
export class CredentialCipher {
  constructor(private readonly keyring: CipherKeyring) {}

  encrypt(plaintext: string, associatedData: string): EncryptedValue {
    const key = this.key(this.keyring.currentKid);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: GCM_TAG_BYTES });
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { kid: this.keyring.currentKid, iv: iv.toString('base64'), ct: ct.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
  }

  /** Throws when the value was tampered with, moved to another record, or its key is gone. */
  decrypt(value: EncryptedValue, associatedData: string): string {
    // GCM accepts truncated tags (down to 4 bytes) unless told the length: a forger would then need
    // to guess only 32 bits. Require the full 16 bytes we always write.
    const tag = Buffer.from(value.tag, 'base64');
    if (tag.length !== GCM_TAG_BYTES) throw new Error(`credential authentication tag must be ${GCM_TAG_BYTES} bytes, got ${tag.length}`);
    const decipher = createDecipheriv('aes-256-gcm', this.key(value.kid), Buffer.from(value.iv, 'base64'), { authTagLength: GCM_TAG_BYTES });
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(value.ct, 'base64')), decipher.final()]).toString('utf8');
  }

  private key(kid: string): Buffer {
    const key = this.keyring.keys.get(kid);
    if (!key) throw new Error(`credential key "${kid}" is not configured`);
    return key;
  }
}
