import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';

/**
 * Values a message request carries that must never be readable on the bus (one-time links with
 * reset and invitation tokens, activation codes), sealed to the one service that sends the message:
 * ECIES over X25519. The sender (identity) holds only the notifier's public key, so it can seal but
 * not open; anyone reading the topic holds neither key. Format, version 1:
 * `0x01 | ephemeral X25519 public key (32) | nonce (12) | GCM tag (16) | AES-256-GCM ciphertext`,
 * the key from HKDF-SHA256 over the shared secret, the message id as associated data so a sealed
 * value copied onto another request fails to open.
 */
const VERSION = 1;
const INFO = Buffer.from('stormhook message params v1', 'utf8');
const RAW_KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + RAW_KEY_BYTES + NONCE_BYTES + TAG_BYTES;

const pemText = (text: string): string => text.replace(/\\n/g, '\n').trim();

function requireX25519(key: KeyObject, type: 'public' | 'private'): KeyObject {
  if (key.type !== type) throw new Error(`the message key must be an X25519 ${type} key`);
  if (key.asymmetricKeyType !== 'x25519') throw new Error(`the message key is ${key.asymmetricKeyType ?? 'not an asymmetric key'}, not X25519`);
  return key;
}

/** The opening key from PKCS#8 PEM; throws when it is not an X25519 private key. */
export function messageOpeningKey(pem: string): KeyObject {
  return requireX25519(createPrivateKey({ key: pemText(pem), format: 'pem' }), 'private');
}

/** The sealing key from SPKI PEM; a private key is refused, so a sender handed one by mistake fails to start. */
export function messageSealingKey(pem: string): KeyObject {
  if (/PRIVATE KEY/.test(pem)) throw new Error('the message public key is a private key; give senders only the public key');
  return requireX25519(createPublicKey({ key: pemText(pem), format: 'pem' }), 'public');
}

const rawPublic = (key: KeyObject): Buffer => Buffer.from(key.export({ format: 'jwk' }).x ?? '', 'base64url');
const publicFromRaw = (raw: Buffer): KeyObject => createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: raw.toString('base64url') }, format: 'jwk' });

function contentKey(shared: Buffer, ephemeral: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', shared, ephemeral, INFO, 32));
}

/** Seals `params` to the holder of the private half of `recipient`, bound to `associatedData` (the message id). */
export function sealParams(params: Readonly<Record<string, string>>, recipient: KeyObject, associatedData: string): Buffer {
  const ephemeral = generateKeyPairSync('x25519');
  const ephemeralRaw = rawPublic(ephemeral.publicKey);
  const key = contentKey(diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipient }), ephemeralRaw);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(params), 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.of(VERSION), ephemeralRaw, nonce, cipher.getAuthTag(), ciphertext]);
}

/** Opened values, or why they cannot be opened (tampered, sealed to another key or another message, unknown version). */
export type OpenedParams = { ok: true; params: Record<string, string> } | { ok: false; reason: string };

export function openParams(sealed: Uint8Array, opener: KeyObject, associatedData: string): OpenedParams {
  const bytes = Buffer.from(sealed);
  if (bytes.length < HEADER_BYTES || bytes[0] !== VERSION) return { ok: false, reason: 'sealed params have an unknown format' };
  try {
    const ephemeralRaw = bytes.subarray(1, 1 + RAW_KEY_BYTES);
    const nonce = bytes.subarray(1 + RAW_KEY_BYTES, 1 + RAW_KEY_BYTES + NONCE_BYTES);
    const tag = bytes.subarray(1 + RAW_KEY_BYTES + NONCE_BYTES, HEADER_BYTES);
    const key = contentKey(diffieHellman({ privateKey: opener, publicKey: publicFromRaw(ephemeralRaw) }), ephemeralRaw);
    const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(tag);
    const text = Buffer.concat([decipher.update(bytes.subarray(HEADER_BYTES)), decipher.final()]).toString('utf8');
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Object.values(parsed).some((v) => typeof v !== 'string'))
      return { ok: false, reason: 'sealed params are not a string map' };
    return { ok: true, params: parsed as Record<string, string> };
  } catch {
    return { ok: false, reason: 'sealed params do not open with this key and message id' };
  }
}
