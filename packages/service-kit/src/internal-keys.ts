import type { KeyObject } from 'node:crypto';
import { ConfigError } from '@stormhook/config';
import { PRINCIPAL_PUBLIC_KEY_VARIABLE, PRINCIPAL_SIGNING_KEY_VARIABLE, principalPublicKeys, principalSigningKey } from '@stormhook/grpc';

// The env spec only knows strings; whether the text is the right kind of key is checked here, at
// start, so a wrong Secret fails the pod with the variable's name instead of refusing every call.

function parsed<T>(variable: string, expected: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    // First line only, never the value: the message must not carry key material.
    throw new ConfigError([{ variable, problem: `must be ${expected} (${(error as Error).message.split('\n')[0]})` }]);
  }
}

/** The gateway's signing key from its config, or a ConfigError naming INTERNAL_PRINCIPAL_SIGNING_KEY. */
export function principalSigningKeyOf(config: { readonly INTERNAL_PRINCIPAL_SIGNING_KEY: string }): KeyObject {
  return parsed(PRINCIPAL_SIGNING_KEY_VARIABLE, 'an Ed25519 private key in PKCS#8 PEM', () => principalSigningKey(config.INTERNAL_PRINCIPAL_SIGNING_KEY));
}

/**
 * A service's verifying keys from its config (one; two during a rotation), or a ConfigError naming
 * INTERNAL_PRINCIPAL_PUBLIC_KEY.
 */
export function principalPublicKeysOf(config: { readonly INTERNAL_PRINCIPAL_PUBLIC_KEY: string }): KeyObject[] {
  return parsed(PRINCIPAL_PUBLIC_KEY_VARIABLE, 'one or more Ed25519 public keys in SPKI PEM', () => principalPublicKeys(config.INTERNAL_PRINCIPAL_PUBLIC_KEY));
}
