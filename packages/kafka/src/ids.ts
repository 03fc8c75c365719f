import { randomBytes } from 'node:crypto';

// Crockford base32, as in ULID: sortable by time, no ambiguous letters, safe in URLs and headers.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET.charAt(rest % 32) + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function encodeRandom(bytes: Buffer): string {
  // 16 characters of 5 bits each = 80 bits = the 10 random bytes.
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = ALPHABET.charAt(Number(bits & 31n)) + out;
    bits >>= 5n;
  }
  return out;
}

/**
 * A new event id: `evt_` + a ULID (time-ordered, 80 random bits). The prefix makes ids greppable in
 * logs and dead letters; consumers de-duplicate on it, so it must be unique per event, not per attempt.
 */
export function newEventId(now: number = Date.now()): string {
  return `evt_${encodeTime(now)}${encodeRandom(randomBytes(10))}`;
}
