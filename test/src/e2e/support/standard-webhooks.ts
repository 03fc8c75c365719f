import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks v1 verification written from the specification, independently of the notifier's
 * code: HMAC-SHA256 keyed with the base64-decoded part of the secret after "whsec_", over
 * "<webhook-id>.<webhook-timestamp>.<body>", compared in constant time with every "v1," entry.
 */
export function signatureMatches(secret: string, id: string, timestamp: string, body: string, signatureHeader: string): boolean {
  if (!secret.startsWith('whsec_')) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatureHeader
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => {
      const given = Buffer.from(entry.slice(3), 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** Why a received callback fails verification, or undefined when it passes (5 minutes of clock tolerance). */
export function verificationProblem(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  nowMs = Date.now(),
): string | undefined {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signature = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string')
    return 'a webhook-id, webhook-timestamp or webhook-signature header is missing';
  if (!/^\d+$/.test(timestamp) || Math.abs(Number(timestamp) * 1000 - nowMs) > 5 * 60_000)
    return `webhook-timestamp ${timestamp} is not within 5 minutes of now`;
  return signatureMatches(secret, id, timestamp, body, signature) ? undefined : 'no v1 signature matches the signing secret';
}
