import { randomBytes } from 'node:crypto';

/** Kid of the development key; an operator moving to a real key keeps old records readable with `new:<key>,dev:<this key>`. */
export const DEV_KID = 'dev';

/**
 * A new keyring for a stack started without CREDENTIAL_ENCRYPTION_KEY, in the variable's own format:
 * one random 32-byte key under DEV_KID. Where it is kept (and why production must not rely on it) is
 * the persistence side's: persistence/mongo-dev-keyring.ts.
 */
export function newDevKeyring(): string {
  return `${DEV_KID}:${randomBytes(32).toString('base64')}`;
}
