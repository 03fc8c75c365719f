import { randomBytes } from 'node:crypto';

/** Standard Webhooks secrets are `whsec_` + base64 of 24 to 64 random bytes; we generate 32. */
export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The HMAC key of a secret: the base64 after the prefix, decoded. Throws on a malformed secret. */
export function signingKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('signing secret must start with whsec_');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  if (key.length < 16) throw new Error('signing secret is too short');
  return key;
}
