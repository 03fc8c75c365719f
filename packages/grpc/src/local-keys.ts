import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
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
 * The notifier's X25519 key pair that message secrets (one-time links and codes) are sealed to on
 * Kafka (@stormhook/kafka sealParams): the private key is the notifier's alone, the public key goes to
 * the services that request messages. Generated per run beside the signing keys, so a local start
 * and every test seal too; the chart takes both from Secrets.
 */
export const MESSAGE_KEY_VARIABLE = 'NOTIFIER_MESSAGE_KEY';
export const MESSAGE_PUBLIC_KEY_VARIABLE = 'NOTIFIER_MESSAGE_PUBLIC_KEY';
/** Who requests messages from the notifier over Kafka, so holds its public message key. */
const MESSAGE_REQUESTERS: readonly string[] = ['identity'];

function messageKeys(env: NodeJS.ProcessEnv): Record<string, string> {
  const given = env[MESSAGE_KEY_VARIABLE];
  const privateKey = given ? createPrivateKey(given.replace(/\\n/g, '\n')) : generateKeyPairSync('x25519').privateKey;
  return {
    [MESSAGE_KEY_VARIABLE]: given || privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    [MESSAGE_PUBLIC_KEY_VARIABLE]: createPublicKey(privateKey).export({ format: 'pem', type: 'spki' }).toString(),
  };
}

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
  return { ...keys, ...messageKeys(env), [INTERNAL_PUBLIC_KEYS_VARIABLE]: JSON.stringify(publicKeys) };
}

/** What one service's process gets of a run's keys: its own private key (when it calls others) and the public keys. */
export function internalKeysOf(keys: InternalKeyEnv, service: string): Record<string, string> {
  const own = keys[signingKeyVariable(service)];
  const messageKey = keys[MESSAGE_KEY_VARIABLE];
  const messagePublicKey = keys[MESSAGE_PUBLIC_KEY_VARIABLE];
  return {
    [INTERNAL_PUBLIC_KEYS_VARIABLE]: keys[INTERNAL_PUBLIC_KEYS_VARIABLE],
    ...(own === undefined ? {} : { [signingKeyVariable(service)]: own }),
    ...(service === 'notifier' && messageKey !== undefined ? { [MESSAGE_KEY_VARIABLE]: messageKey } : {}),
    ...(MESSAGE_REQUESTERS.includes(service) && messagePublicKey !== undefined ? { [MESSAGE_PUBLIC_KEY_VARIABLE]: messagePublicKey } : {}),
  };
}

/**
 * Every private-key variable of a run (each calling service's signing key, the notifier's message
 * key): what a supervisor removes from the environment it passes on.
 */
export function signingKeyVariables(): string[] {
  return [...callingServices().map((service) => signingKeyVariable(service)), MESSAGE_KEY_VARIABLE];
}
