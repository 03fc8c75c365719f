import type { Delivery, DeliveryAttempt, DeliveryStatus, FailureReason } from './delivery.js';

/**
 * What one attempt decided about its delivery. It is written once, with the attempt, into the
 * append-only attempt log: on the embedded FerretDB an update of the delivery document costs a
 * read-modify-write in SQLite's single writer (a few hundred a second at most), an insert in a batch
 * a fraction of that, so the state after each attempt is appended, never updated in place.
 */
export interface AttemptOutcome {
  status: DeliveryStatus;
  finishedAt: Date | null;
  failureReason: FailureReason | null;
  /** DeliveryFailed is owed (the outbox flag of this outcome). */
  publishFailure: boolean;
  endpointId: string | null;
}

/** One entry of the attempt log: the attempt as the owner sees it plus the state it left behind. */
export interface LoggedAttempt {
  attempt: DeliveryAttempt;
  outcome: AttemptOutcome;
}

/**
 * The delivery document's own state fields are written rarely (dead without an attempt, reopened for
 * a manual redelivery, DeliveryFailed published) and say after which attempt number they were
 * written: `stateAttempt`. The effective delivery is the document's state unless the log holds a
 * later attempt, whose outcome then wins. Attempt numbers only grow, so this order needs no clock.
 */
export function foldDelivery(stored: Delivery & { stateAttempt: number }, logged: readonly LoggedAttempt[]): Delivery {
  const { stateAttempt, ...doc } = stored;
  const byNumber = new Map<number, DeliveryAttempt>();
  for (const attempt of doc.attempts) byNumber.set(attempt.attemptNumber, attempt);
  let last: LoggedAttempt | undefined;
  for (const entry of logged) {
    byNumber.set(entry.attempt.attemptNumber, entry.attempt);
    if (!last || entry.attempt.attemptNumber > last.attempt.attemptNumber) last = entry;
  }
  const attempts = [...byNumber.values()].sort((a, b) => a.attemptNumber - b.attemptNumber);
  if (!last || last.attempt.attemptNumber <= stateAttempt)
    return { ...doc, attempts, attemptCount: Math.max(doc.attemptCount, last?.attempt.attemptNumber ?? 0) };
  const { attempt, outcome } = last;
  return {
    ...doc,
    attempts,
    status: outcome.status,
    attemptCount: Math.max(doc.attemptCount, attempt.attemptNumber),
    nextAttemptAt: attempt.nextAttemptAt,
    finishedAt: outcome.finishedAt,
    lastResponseStatus: attempt.responseStatus,
    lastError: attempt.error,
    failureReason: outcome.failureReason,
    failureEventPending: outcome.publishFailure,
    endpointId: outcome.endpointId ?? doc.endpointId,
    updatedAt: outcome.finishedAt ?? new Date(attempt.startedAt.getTime() + attempt.durationMs),
  };
}
