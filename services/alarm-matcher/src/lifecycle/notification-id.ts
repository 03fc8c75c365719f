import { createHash } from 'node:crypto';

/**
 * The id of the notification for (weather event, registration, stage): the same inputs always give
 * the same id, so a replayed event, a second matcher instance or a retried slot produces the id the
 * notifier already holds (it keeps one delivery per id and sends it as `webhook-id`). 128 bits of
 * SHA-256 in hex, prefix `ntf_`.
 */
export function notificationId(eventId: string, registrationId: string, stage: string): string {
  const digest = createHash('sha256').update(`${eventId}\u0000${registrationId}\u0000${stage}`).digest('hex');
  return `ntf_${digest.slice(0, 32)}`;
}
