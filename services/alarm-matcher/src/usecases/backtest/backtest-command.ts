import { owns, type Caller } from '../../domain/caller.js';
import type { RegistrationDraft } from '../../domain/draft.js';
import { fail, invalid, ok, precondition, unavailable, type Result } from '../../domain/errors.js';
import { validateDraft } from '../../domain/validate-draft.js';
import type { CallBudget } from '../../ports/call-budget.js';
import type { RegistrationRepository } from '../../ports/registration-repository.js';
import type { Clock } from '../../ports/clock.js';
import { DependencyUnavailableError } from '../../ports/dependency.js';
import { checkBoundary, type BoundaryCheckDeps } from '../registrations/boundary-check.js';
import { buildRegistration } from '../registrations/build-registration.js';
import { checkCircleInPlan, type CircleInPlanDeps } from '../registrations/circle-in-plan.js';
import { registrationNotFound } from '../registrations/registration-commands.js';
import type { BacktestOutcome, BacktestRunner } from './backtest-outcome.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** How far back a window may start: the history keeps 30 days of every kind (issue 24). */
export const MAX_LOOKBACK_MS = 30 * DAY_MS;
/**
 * How far a caller's clock may run ahead of ours: a `to` of "now" on that clock, or a `from` of
 * "30 days ago", is clipped to our now (to our 30 days ago) instead of refused.
 */
export const CLOCK_SKEW_MS = MINUTE_MS;

/** The window asked for: epoch milliseconds UTC, from inclusive, to exclusive. */
export interface BacktestWindow {
  fromMs: number;
  toMs: number;
}

export interface BacktestCommandDeps extends BoundaryCheckDeps, CircleInPlanDeps {
  /** Runs the draft over the history with the live matching core. */
  runner: BacktestRunner;
  clock: Clock;
  /** Looks up the registration a back-test names by registrationId. */
  repo: Pick<RegistrationRepository, 'findById'>;
  /** The draft's id when it names no registration: a fresh one per back-test, never taken for a stored registration's. */
  newId: () => string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The window checked against now: both ends integers, from before to, to not in the future and
 * from at most 30 days back (each within the clock skew, then clipped). The error names the field.
 */
export function checkWindow(window: BacktestWindow, nowMs: number): Result<BacktestWindow> {
  const { fromMs, toMs } = window;
  if (!Number.isSafeInteger(fromMs) || fromMs < 0) return fail(invalid('from', 'must be a non-negative integer (epoch milliseconds UTC)'));
  if (!Number.isSafeInteger(toMs) || toMs < 0) return fail(invalid('to', 'must be a non-negative integer (epoch milliseconds UTC)'));
  if (toMs > nowMs + CLOCK_SKEW_MS) return fail(invalid('to', `must not be in the future (it is ${iso(toMs)}, now is ${iso(nowMs)})`));
  const earliest = nowMs - MAX_LOOKBACK_MS;
  if (fromMs < earliest - CLOCK_SKEW_MS) {
    return fail(invalid('from', `must be at most 30 days before now (it is ${iso(fromMs)}; the earliest start is ${iso(earliest)})`));
  }
  const clipped = { fromMs: Math.max(fromMs, earliest), toMs: Math.min(toMs, nowMs) };
  if (clipped.fromMs >= clipped.toMs) return fail(invalid('from', `must be before to (from ${iso(fromMs)}, to ${iso(clipped.toMs)})`));
  return ok(clipped);
}

/**
 * POST /v1/alarms/{kind}/backtest behind the gateway: a draft registration, validated and checked
 * exactly as register does (account, fields, boundary, plan geography) but with the webhook
 * optional, built with register's code under a fresh draft id (or the id of the caller's registration
 * it names), never stored, and run over a past
 * window of the weather history. `budget` is the API caller's remaining time; the geo calls share it.
 */
export class BacktestCommand {
  constructor(private readonly deps: BacktestCommandDeps) {}

  async run(caller: Caller, draft: RegistrationDraft, window: BacktestWindow, budget?: CallBudget): Promise<Result<BacktestOutcome>> {
    const accountId = caller.accountId;
    if (!accountId) {
      return fail(precondition('ACCOUNT_REQUIRED', 'Your user has no account yet; create one (POST /v1/accounts/create) before back-testing alarms'));
    }
    const input = validateDraft(draft, 'backtest');
    if (!input.ok) return input;
    const now = this.deps.clock.now();
    const checked = checkWindow(window, now);
    if (!checked.ok) return checked;
    const facts = await checkBoundary(input.value, this.deps, budget);
    if (!facts.ok) return facts;
    if (input.value.kind === 'POINT') {
      const inside = await checkCircleInPlan(input.value.circle, accountId, this.deps, budget);
      if (!inside.ok) return inside;
    }
    const warnings = [...input.value.warnings, ...facts.value.warnings];
    // Named: one of the caller's registrations of this kind (the same not-found answer as update otherwise),
    // run under its id and account so every notification id equals the one the live path gave.
    let identity = { registrationId: this.deps.newId(), accountId };
    if (input.value.registrationId !== '') {
      const existing = await this.deps.repo.findById(input.value.registrationId);
      if (!existing || existing.kind !== draft.kind || !owns(caller, existing.accountId))
        return fail(registrationNotFound(draft.kind, input.value.registrationId));
      identity = { registrationId: existing.registrationId, accountId: existing.accountId };
    }
    const registration = buildRegistration(input.value, facts.value, { ...identity, createdAtMs: now, updatedAtMs: now, version: 1 }, warnings);
    try {
      const outcome = await this.deps.runner.run({ registration, fromMs: checked.value.fromMs, toMs: checked.value.toMs });
      // The draft's own warnings (an ignored webhook, a filter that never matches) come first, once each.
      return ok({ ...outcome, warnings: [...new Set([...warnings, ...outcome.warnings])] });
    } catch (error) {
      if (error instanceof DependencyUnavailableError) {
        return fail(
          unavailable(error.dependency, `The ${error.dependency === 'query' ? 'weather history' : error.dependency} service is unavailable; try again shortly`),
        );
      }
      throw error;
    }
  }
}
