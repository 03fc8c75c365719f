import { callingServices } from './edges.js';
import { INTERNAL_PUBLIC_KEYS_VARIABLE, newServiceKeyPair, publicKeyPemOf, signingKeyVariable } from './service-keys.js';

/**
 * The internal-token settings of one run, by variable name: each calling service's private key under
 * its own variable (`GATEWAY_INTERNAL_SIGNING_KEY`, ...) and the public-key map every gRPC service
 * reads (INTERNAL_PUBLIC_KEYS). A process that plays every service (a test) spreads it whole; a
 * service's own process gets only its part (see {@link internalKeysOf}).
 */
export type InternalKeyEnv = { readonly [INTERNAL_PUBLIC_KEYS_VARIABLE]: string } & Readonly<Record<string, string>>;

/**
 * The keys of a local run (`npm start`, `npm test`, benches): the signing keys `env` sets, else a
 * fresh pair per calling service (from the edge table), so nobody has to create or store a key to
 * start the stack. The public keys always come from the signing keys, so they cannot disagree. Does
 * not change `env`; a caller that wants later readers of the process's environment to agree stores
 * the result there.
 */
export function localInternalKeys(env: NodeJS.ProcessEnv = process.env): InternalKeyEnv {
  const keys: Record<string, string> = {};
  const publicKeys: Record<string, string> = {};
  for (const service of callingServices()) {
    const variable = signingKeyVariable(service);
    const signingKey = env[variable] || newServiceKeyPair().signingKey;
    keys[variable] = signingKey;
    publicKeys[service] = publicKeyPemOf(signingKey);
  }
  return { ...keys, [INTERNAL_PUBLIC_KEYS_VARIABLE]: JSON.stringify(publicKeys) };
}

/** What one service's process gets of a run's keys: its own private key (when it calls others) and the public keys. */
export function internalKeysOf(keys: InternalKeyEnv, service: string): Record<string, string> {
  const own = keys[signingKeyVariable(service)];
  return { [INTERNAL_PUBLIC_KEYS_VARIABLE]: keys[INTERNAL_PUBLIC_KEYS_VARIABLE], ...(own === undefined ? {} : { [signingKeyVariable(service)]: own }) };
}

/** Every calling service's signing-key variable: what a supervisor removes from the environment it passes on. */
export function signingKeyVariables(): string[] {
  return callingServices().map((service) => signingKeyVariable(service));
}
