import { randomBytes } from 'node:crypto';
import { newPrincipalKeyPair, principalPublicKeyPem } from './principal-keys.js';

/** The internal-token settings of one run, by variable name (the gateway reads the signing key, the services the public one). */
export interface InternalKeyEnv {
  INTERNAL_TOKEN_KEY: string;
  INTERNAL_PRINCIPAL_SIGNING_KEY: string;
  INTERNAL_PRINCIPAL_PUBLIC_KEY: string;
}

/** A fresh random shared key for service tokens. */
export function randomInternalKey(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The keys of a local run (`npm start`, `npm test`, benches): the ones `env` sets, else fresh ones, so
 * nobody has to create or store a key to start the stack. The public key always comes from the
 * signing key, so the pair cannot disagree. Does not change `env`; a caller that wants later readers
 * of the process's environment to agree stores the result there.
 */
export function localInternalKeys(env: NodeJS.ProcessEnv = process.env): InternalKeyEnv {
  const signingKey = env['INTERNAL_PRINCIPAL_SIGNING_KEY'] || newPrincipalKeyPair().signingKey;
  return {
    INTERNAL_TOKEN_KEY: env['INTERNAL_TOKEN_KEY'] || randomInternalKey(),
    INTERNAL_PRINCIPAL_SIGNING_KEY: signingKey,
    INTERNAL_PRINCIPAL_PUBLIC_KEY: principalPublicKeyPem(signingKey),
  };
}
