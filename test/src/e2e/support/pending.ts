import type { Answer } from './api-client.js';

/** Why each skipped scenario was skipped; printed at the end of the run (mocha shows no reasons). */
export const pendingReasons: string[] = [];

/**
 * A scenario whose operation the gateway does not serve yet (501 "<operation> is not available yet")
 * is skipped with that reason instead of failing or passing: it switches on by itself once the
 * backing service lands. Any other answer is left for the test to judge.
 */
export function skipWhenPending(context: Mocha.Context, answer: Answer, what: string): void {
  if (answer.status !== 501) return;
  const message = typeof answer.body?.message === 'string' ? answer.body.message : answer.text;
  const title = context.currentTest?.fullTitle() ?? context.test?.fullTitle() ?? what;
  pendingReasons.push(`${title}: ${what} answers 501 (${message})`);
  context.skip();
}

/** Skips the scenario and records why (something it needs does not exist yet). */
export function skipWithReason(context: Mocha.Context, reason: string): never {
  const title = context.currentTest?.fullTitle() ?? context.test?.fullTitle() ?? '';
  pendingReasons.push(`${title}: ${reason}`);
  context.skip();
}
