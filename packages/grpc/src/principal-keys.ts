import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

/**
 * The Ed25519 key pair of principal tokens (internal tokens that carry a customer). Only the gateway
 * holds the private key; every gRPC service holds the public key. Unlike the shared HMAC key, holding
 * the public key does not let a service mint a token that acts for a customer.
 */

/** The gateway's private key, PKCS#8 PEM. */
export const PRINCIPAL_SIGNING_KEY_VARIABLE = 'INTERNAL_PRINCIPAL_SIGNING_KEY';
/** The public key the gRPC services verify principal tokens with, SPKI PEM. */
export const PRINCIPAL_PUBLIC_KEY_VARIABLE = 'INTERNAL_PRINCIPAL_PUBLIC_KEY';

/** `.env` files and some secret stores carry a PEM's line breaks as the two characters \n. */
const pemText = (text: string): string => text.replace(/\\n/g, '\n').trim();

function requireEd25519(key: KeyObject, what: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${what} is ${key.asymmetricKeyType ?? 'not an asymmetric key'}, not Ed25519`);
  return key;
}

/** The gateway's signing key from PKCS#8 PEM (or a KeyObject); throws when it is not an Ed25519 private key. */
export function principalSigningKey(key: string | KeyObject): KeyObject {
  const object = typeof key === 'string' ? createPrivateKey({ key: pemText(key), format: 'pem' }) : key;
  if (object.type !== 'private') throw new Error('the principal signing key must be a private key');
  return requireEd25519(object, 'the principal signing key');
}

/**
 * The verifying keys from SPKI PEM (or KeyObjects); throws when one is not an Ed25519 public key.
 * Normally one; during a rotation the text holds the new and the old key, PEM block after PEM block,
 * so services accept both while the gateways change over (see the chart's values.yaml).
 */
export function principalPublicKeys(key: string | KeyObject | readonly KeyObject[]): KeyObject[] {
  if (typeof key !== 'string') return (Array.isArray(key) ? key : [key]).map((k: KeyObject) => publicOnly(k));
  // createPublicKey would also accept a private key and derive its public half: a service handed the
  // private key by mistake must fail to start, not run holding it.
  if (/PRIVATE KEY/.test(key)) throw new Error('the principal public key is a private key; give the services only the public key');
  const blocks = pemText(key).match(/-----BEGIN [^-]+-----[\s\S]*?-----END [^-]+-----/g) ?? [pemText(key)];
  return blocks.map((block) => publicOnly(createPublicKey({ key: block, format: 'pem' })));
}

function publicOnly(key: KeyObject): KeyObject {
  if (key.type !== 'public') throw new Error('the principal public key must be a public key');
  return requireEd25519(key, 'the principal public key');
}

/** The public key in SPKI PEM that belongs to a signing key in PKCS#8 PEM. */
export function principalPublicKeyPem(signingKeyPem: string): string {
  return createPublicKey(principalSigningKey(signingKeyPem)).export({ type: 'spki', format: 'pem' }).toString();
}

/** A fresh key pair in PEM, as the local stack and the tests make one per run. */
export function newPrincipalKeyPair(): { signingKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    signingKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}
