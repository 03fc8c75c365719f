import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

/**
 * The Ed25519 keys of internal tokens. Every service that calls others holds its own private key and
 * signs its tokens with it; every gRPC service holds the public keys of the services allowed to call
 * it (the edge table's `callersOf`) and checks a token with the key of the issuer it names. Holding a
 * public key lets a service check a token, never make one.
 */

/** The public keys every gRPC service reads: a JSON object, service name -> SPKI PEM (one block, or two during a rotation). */
export const INTERNAL_PUBLIC_KEYS_VARIABLE = 'INTERNAL_PUBLIC_KEYS';

type Snake<S extends string> = S extends `${infer A}-${infer B}` ? `${A}_${Snake<B>}` : S;
/** The variable a calling service reads its own private key from, e.g. `ALARM_MATCHER_INTERNAL_SIGNING_KEY`. */
export type SigningKeyVariable<S extends string> = `${Uppercase<Snake<S>>}_INTERNAL_SIGNING_KEY`;

/**
 * Named for the service, like its gRPC address variable: one process that plays several services
 * (a test) can hold them all, while each service reads only its own, so a key handed to the wrong
 * pod is never taken for that pod's own.
 */
export function signingKeyVariable<S extends string>(service: S): SigningKeyVariable<S> {
  return `${service.toUpperCase().replace(/-/g, '_')}_INTERNAL_SIGNING_KEY` as SigningKeyVariable<S>;
}

/** `.env` files and some secret stores carry a PEM's line breaks as the two characters \n. */
const pemText = (text: string): string => text.replace(/\\n/g, '\n').trim();

function requireEd25519(key: KeyObject, what: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${what} is ${key.asymmetricKeyType ?? 'not an asymmetric key'}, not Ed25519`);
  return key;
}

/** A service's signing key from PKCS#8 PEM (or a KeyObject); throws when it is not an Ed25519 private key. */
export function serviceSigningKey(key: string | KeyObject): KeyObject {
  const object = typeof key === 'string' ? createPrivateKey({ key: pemText(key), format: 'pem' }) : key;
  if (object.type !== 'private') throw new Error('the internal signing key must be a private key');
  return requireEd25519(object, 'the internal signing key');
}

/**
 * One service's verifying keys from SPKI PEM (or KeyObjects); throws when one is not an Ed25519
 * public key. Normally one; during a rotation the text holds the new and the old key, PEM block after
 * PEM block, so verifiers accept both while the service changes over (see the chart's values.yaml).
 */
export function servicePublicKeys(key: string | KeyObject | readonly KeyObject[]): KeyObject[] {
  if (typeof key !== 'string') return (Array.isArray(key) ? key : [key]).map((k: KeyObject) => publicOnly(k));
  // createPublicKey would also accept a private key and derive its public half: a verifier handed a
  // private key by mistake must fail to start, not run holding it.
  if (/PRIVATE KEY/.test(key)) throw new Error('the public key is a private key; give the verifiers only the public key');
  const blocks = pemText(key).match(/-----BEGIN [^-]+-----[\s\S]*?-----END [^-]+-----/g) ?? [pemText(key)];
  return blocks.map((block) => publicOnly(createPublicKey({ key: block, format: 'pem' })));
}

function publicOnly(key: KeyObject): KeyObject {
  if (key.type !== 'public') throw new Error('the public key must be a public key');
  return requireEd25519(key, 'the public key');
}

/** What a verifier is given: the public key(s) of each service, by name. */
export type PublicKeysByService = Readonly<Record<string, string | KeyObject | readonly KeyObject[]>>;

/**
 * The public-key map from its JSON text (INTERNAL_PUBLIC_KEYS): an object of service name -> SPKI PEM.
 * Every entry is checked, so a bad key fails the start with the service it belongs to.
 */
export function parsePublicKeys(json: string): Record<string, KeyObject[]> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new Error('the public keys are not JSON (expected an object of service name -> SPKI PEM)', { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('the public keys must be a JSON object of service name -> SPKI PEM');
  const keys: Record<string, KeyObject[]> = {};
  for (const [service, pem] of Object.entries(value as Record<string, unknown>)) {
    if (typeof pem !== 'string') throw new Error(`the public key of ${service} must be a PEM string`);
    try {
      keys[service] = servicePublicKeys(pem);
    } catch (error) {
      throw new Error(`the public key of ${service}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
    }
  }
  return keys;
}

/** The public key in SPKI PEM that belongs to a signing key in PKCS#8 PEM. */
export function publicKeyPemOf(signingKeyPem: string): string {
  return createPublicKey(serviceSigningKey(signingKeyPem)).export({ type: 'spki', format: 'pem' }).toString();
}

/** A fresh key pair in PEM, as the local stack and the tests make one per calling service and run. */
export function newServiceKeyPair(): { signingKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    signingKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}
