/**
 * What a handler decided about one record. Returned as a value, never thrown, so that the consumer
 * can tell a poison record (dead-letter: the partition moves on) from a transient failure (retry:
 * the same record again, and the consumer stops loudly if it never succeeds).
 */
export type Outcome = { kind: 'ok' } | { kind: 'dead-letter'; reason: string } | { kind: 'retry'; reason: string };

export const Outcomes = {
  ok: (): Outcome => ({ kind: 'ok' }),
  deadLetter: (reason: string): Outcome => ({ kind: 'dead-letter', reason }),
  retry: (reason: string): Outcome => ({ kind: 'retry', reason }),
} as const;

export interface RetryPolicy {
  /** Handler runs per record, the first included, before the consumer gives up. */
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, initialDelayMs: 200, maxDelayMs: 5_000 };

/** What the consumer does next with the record it holds. */
export type NextStep =
  | { kind: 'commit' }
  | { kind: 'dead-letter'; reason: string }
  | { kind: 'retry'; reason: string; delayMs: number }
  | { kind: 'give-up'; reason: string; attempts: number };

/** Exponential backoff: initial, 2x, 4x ... capped. `attempt` is the attempt that just failed (1-based). */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const exponent = Math.max(0, attempt - 1);
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** exponent);
}

/** Decides from the outcome of attempt number `attempt` (1-based). */
export function nextStep(outcome: Outcome, attempt: number, policy: RetryPolicy): NextStep {
  switch (outcome.kind) {
    case 'ok':
      return { kind: 'commit' };
    case 'dead-letter':
      return { kind: 'dead-letter', reason: outcome.reason };
    case 'retry':
      if (attempt >= policy.maxAttempts) return { kind: 'give-up', reason: outcome.reason, attempts: attempt };
      return { kind: 'retry', reason: outcome.reason, delayMs: backoffDelay(attempt, policy) };
  }
}

/** A handler that throws did not decide; treat it as transient, since poison should be said explicitly. */
export function outcomeFromError(error: unknown): Outcome {
  const message = error instanceof Error ? error.message : String(error);
  return Outcomes.retry(`handler threw: ${message}`);
}
