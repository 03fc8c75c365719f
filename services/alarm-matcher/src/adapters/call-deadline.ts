import type { CallBudget } from '../ports/call-budget.js';

/** Kept back from the caller's deadline for the answer's way back and the steps after the call. */
export const REPLY_MARGIN_MS = 250;
/** The least a call is given: a budget spent to the last millisecond still ends in a timeout (503), not a refusal. */
export const MIN_CALL_MS = 100;

/**
 * The per-call options of a gRPC call made for a caller with `budget`: what is left of the caller's
 * time less the margin. Without a budget (consumers, background jobs) the client's configured
 * deadline applies.
 */
export function withinBudget(budget: CallBudget | undefined, nowMs = Date.now()): { deadlineMs?: number } {
  return budget ? { deadlineMs: Math.max(MIN_CALL_MS, budget.deadlineMs - nowMs - REPLY_MARGIN_MS) } : {};
}
