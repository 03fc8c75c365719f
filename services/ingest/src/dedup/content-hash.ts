import { createHash } from 'node:crypto';

/**
 * SHA-256 over the normalised events, so that a record re-sent with cosmetic differences (ring
 * orientation, repeated vertices, 360 vs 0 degrees) counts as the same content. Key order is that of
 * our own constructors, hence stable; NaN (a missing forecast hour) serialises as null.
 */
export function contentHash(events: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(events)).digest('hex');
}

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The Kafka event id of one revision of one weather event: deterministic, so a revision published
 * again after a crash carries the same id and readers de-duplicate it. Same shape as newEventId
 * (`evt_` + 26 Crockford base32 characters).
 */
export function revisionEventId(eventId: string, revision: number): string {
  const digest = createHash('sha256').update(`${eventId}#${revision}`).digest();
  let out = 'evt_';
  let bits = 0;
  let value = 0;
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 30) {
      out += ALPHABET.charAt((value >> (bits - 5)) & 31);
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (out.length >= 30) break;
  }
  return out;
}
