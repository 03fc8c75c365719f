import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A URL-safe random secret (256 bits by default): refresh tokens, reset tokens, API key secrets. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A random lower-case hex identifier, safe inside tokens that use `_` or `.` as separators. */
export function randomId(bytes = 12): string {
  return randomBytes(bytes).toString('hex');
}

/**
 * SHA-256 of a high-entropy secret. Enough for random 256-bit tokens (nobody brute-forces 2^256);
 * human-chosen passwords go through scrypt instead.
 */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}

export function hmacSha256(key: string, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('base64url');
}

/** Compares two strings without leaking the position of the first difference through timing. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  // timingSafeEqual needs equal lengths; comparing against itself keeps the time independent of b.
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/** A numeric code of `digits` digits from a CSPRNG (SMS verification). */
export function numericCode(digits = 6): string {
  return randomInt(0, 10 ** digits)
    .toString()
    .padStart(digits, '0');
}
