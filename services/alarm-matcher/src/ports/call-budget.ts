/**
 * How long the API caller still waits for its answer (the gRPC deadline of the call being served).
 * A registration makes several calls in a row (geo; the notifier once, or twice on an account's first
 * registration; the database): each gets what is left of the caller's time instead of a fixed timeout
 * of its own. Under storm load a fixed 5 s per call failed registrations whose caller would still
 * have waited, and could not stop a chain of calls from outliving the caller either.
 */
export interface CallBudget {
  /** Epoch milliseconds at which the caller stops waiting. */
  readonly deadlineMs: number;
}
