import type { DeliveryAttempt } from '../domain/delivery.js';
import type { AttemptOutcome, LoggedAttempt } from '../domain/delivery-state.js';
import { packFields, unpackFields } from './packed-fields.js';

/**
 * One attempt of the append-only attempt log. The key `<deliveryId>#<attemptNumber>` is unique, and
 * reads find a delivery's attempts by that key (the only filter FerretDB on SQLite answers from an
 * index); `deliveryId` and `accountId` serve MongoDB's indexes and the delivery log's list, and
 * `startedAt` the retention. `responseBody` (up to 20 kB of whatever a receiver answered, an HTML
 * error page as often as not) stays top-level so that reads of many attempts can leave it out.
 * Documents written since the packed form keep the rest of the attempt and its outcome in `packed`
 * (packed-fields.ts: 6 fields where there were 20); documents of the earlier form have every field
 * top-level. Both are read.
 */
export type AttemptDocument = Partial<DeliveryAttempt> & {
  _id: string;
  deliveryId: string;
  accountId: string;
  startedAt: Date;
  outcome?: AttemptOutcome;
  packed?: string;
};

/** The keys whose values are Dates in a packed attempt and its outcome. */
const ATTEMPT_DATES: ReadonlySet<string> = new Set(['startedAt', 'nextAttemptAt', 'finishedAt']);

export const attemptKey = (deliveryId: string, attemptNumber: number): string => `${deliveryId}#${attemptNumber}`;

export function toAttemptDocument(deliveryId: string, accountId: string, logged: LoggedAttempt): AttemptDocument {
  const { startedAt, responseBody, ...rest } = logged.attempt;
  return {
    _id: attemptKey(deliveryId, logged.attempt.attemptNumber),
    deliveryId,
    accountId,
    startedAt,
    responseBody,
    packed: packFields({ ...rest, outcome: logged.outcome }),
  };
}

/**
 * The attempt and outcome a document holds, packed fields under the top-level ones (a projected read
 * that leaves out `packed` gets only the top-level fields it asked for).
 */
export function fromAttemptDocument(doc: AttemptDocument): LoggedAttempt {
  const { _id, deliveryId: _d, accountId: _a, packed, ...top } = doc;
  const fields = packed ? { ...unpackFields<Partial<AttemptDocument>>(packed, ATTEMPT_DATES), ...top } : top;
  const { outcome, ...attempt } = fields;
  return { attempt: attempt as DeliveryAttempt, outcome: outcome as AttemptOutcome };
}
