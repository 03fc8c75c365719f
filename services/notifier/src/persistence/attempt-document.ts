import type { DeliveryAttempt } from '../domain/delivery.js';
import type { AttemptOutcome, LoggedAttempt } from '../domain/delivery-state.js';

/**
 * One attempt of the append-only attempt log. The key `<deliveryId>#<attemptNumber>` is unique, and
 * reads find a delivery's attempts by that key (the only filter FerretDB on SQLite answers from an
 * index); `deliveryId` and `accountId` serve MongoDB's indexes and the delivery log's list.
 */
export interface AttemptDocument extends DeliveryAttempt {
  _id: string;
  deliveryId: string;
  accountId: string;
  outcome: AttemptOutcome;
}

export const attemptKey = (deliveryId: string, attemptNumber: number): string => `${deliveryId}#${attemptNumber}`;

export function toAttemptDocument(deliveryId: string, accountId: string, logged: LoggedAttempt): AttemptDocument {
  return { _id: attemptKey(deliveryId, logged.attempt.attemptNumber), deliveryId, accountId, ...logged.attempt, outcome: logged.outcome };
}

export function fromAttemptDocument(doc: AttemptDocument): LoggedAttempt {
  const { _id, deliveryId: _d, accountId: _a, outcome, ...attempt } = doc;
  return { attempt, outcome };
}
