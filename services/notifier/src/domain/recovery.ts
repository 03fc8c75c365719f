import type { DeliveryStatus } from './delivery.js';

/**
 * What a recovery sends again (POST /v1/alarms/webhooks/recover), over the deliveries created in its
 * window:
 * - `failed`: those that died (retries spent, endpoint gone or disabled, no endpoint);
 * - `all`: every finished one, successful or not;
 * - `latest-state`: for each weather event a registration was called about, one callback: the latest
 *   it was sent or meant to get (the END of a storm that ended, not its START and its UPDATEs).
 * Test deliveries are never recovered, and neither is a delivery still pending: its own attempts
 * are on their way.
 */
export const RECOVERY_MODES = ['failed', 'all', 'latest-state'] as const;
export type RecoveryMode = (typeof RECOVERY_MODES)[number];

export const RECOVERY_STATES = ['RUNNING', 'DONE', 'FAILED'] as const;
export type RecoveryState = (typeof RECOVERY_STATES)[number];

/** A delivery as a recovery chooses it (the delivery store answers these; see ports/delivery-store.ts). */
export interface RecoveryCandidate {
  id: string;
  accountId: string;
  endpointId: string | null;
  registrationId: string;
  eventId: string;
  callbackType: string | null;
  status: DeliveryStatus;
  test: boolean;
  attemptCount: number;
  createdAt: Date;
  occurredAt: Date;
}

const recoverable = (c: RecoveryCandidate): boolean => !c.test && c.status !== 'pending';

/** The window's deliveries a `failed` or `all` recovery sends. */
export function chooseFromWindow(mode: Exclude<RecoveryMode, 'latest-state'>, window: readonly RecoveryCandidate[]): RecoveryCandidate[] {
  return window.filter((c) => recoverable(c) && (mode === 'all' || c.status === 'dead'));
}

/** The events a `latest-state` recovery covers: those of the window's non-test deliveries. */
export function eventsOfWindow(window: readonly RecoveryCandidate[]): Array<{ registrationId: string; eventId: string }> {
  const seen = new Map<string, { registrationId: string; eventId: string }>();
  for (const c of window) if (!c.test) seen.set(`${c.registrationId}|${c.eventId}`, { registrationId: c.registrationId, eventId: c.eventId });
  return [...seen.values()];
}

/** Of each event's latest delivery, those a recovery sends (a pending one is on its way already). */
export function chooseLatest(latest: readonly RecoveryCandidate[]): RecoveryCandidate[] {
  return latest.filter(recoverable);
}

/** Callbacks per type; deliveries stored before their type was kept count under "unknown". */
export function countByType(chosen: readonly RecoveryCandidate[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of chosen) {
    const type = c.callbackType ?? 'unknown';
    counts[type] = (counts[type] ?? 0) + 1;
  }
  return counts;
}
