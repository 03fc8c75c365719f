import type { KeyObject } from 'node:crypto';
import { ConfigError } from '@stormhook/config';
import {
  INTERNAL_PUBLIC_KEYS_VARIABLE,
  InternalTokens,
  InternalTokenVerifier,
  callersOf,
  parsePublicKeys,
  serviceSigningKey,
  signingKeyVariable,
  type GrpcCaller,
  type GrpcServiceName,
  type SigningKeyVariable,
} from '@stormhook/grpc';

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

/** A calling service's own signing key from its config, or a ConfigError naming its variable (e.g. GATEWAY_INTERNAL_SIGNING_KEY). */
export function signingKeyOf<S extends GrpcCaller>(config: Readonly<Record<SigningKeyVariable<S>, string>>, service: S): KeyObject {
  const variable = signingKeyVariable(service);
  return parsed(variable, 'an Ed25519 private key in PKCS#8 PEM', () => serviceSigningKey(config[variable]));
}

/** The tokens a calling service sends, signed with its own key (checked at start). */
export function internalTokensOf<S extends GrpcCaller>(config: Readonly<Record<SigningKeyVariable<S>, string>>, service: S): InternalTokens {
  return new InternalTokens({ key: signingKeyOf(config, service), issuer: service });
}

/**
 * The verifier of a gRPC service: its callers' public keys from INTERNAL_PUBLIC_KEYS, or a
 * ConfigError naming the variable (and the caller whose key is missing or bad).
 */
export function internalVerifierOf(config: { readonly INTERNAL_PUBLIC_KEYS: string }, service: GrpcServiceName): InternalTokenVerifier {
  return parsed(
    INTERNAL_PUBLIC_KEYS_VARIABLE,
    `a JSON object of Ed25519 public keys in SPKI PEM with one for each caller of ${service} (${callersOf(service).join(', ')})`,
    () => new InternalTokenVerifier({ publicKeys: parsePublicKeys(config.INTERNAL_PUBLIC_KEYS), audience: service, callers: callersOf(service) }),
  );
}
