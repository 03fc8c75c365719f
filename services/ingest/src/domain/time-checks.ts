import type { Problems } from './problems.js';
import type { IngestRules } from './rules.js';

function describeSpan(ms: number): string {
  if (ms >= 86_400_000) return `${(ms / 86_400_000).toFixed(1)} days`;
  if (ms >= 3_600_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  if (ms >= 60_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${ms} ms`;
}

/**
 * An epoch-millisecond time that is set, not later than now + `allowedFutureMs` (clock skew, or the
 * lead of a nowcast) and not older than the configured maximum age.
 */
export function checkTime(problems: Problems, path: string, value: number, now: number, rules: IngestRules, allowedFutureMs = rules.maxFutureSkewMs): boolean {
  if (!Number.isSafeInteger(value) || value <= 0) {
    problems.add(path, value === 0 ? 'is required (epoch milliseconds)' : `must be positive epoch milliseconds, got ${value}`);
    return false;
  }
  if (value > now + allowedFutureMs) {
    problems.add(path, `${new Date(value).toISOString()} is ${describeSpan(value - now)} in the future; at most ${describeSpan(allowedFutureMs)} is accepted`);
    return false;
  }
  if (value < now - rules.maxAgeMs) {
    problems.add(path, `${new Date(value).toISOString()} is older than the accepted ${describeSpan(rules.maxAgeMs)}`);
    return false;
  }
  return true;
}

/** Optional epoch-millisecond time (0 = not given): only its form is checked. */
export function checkOptionalTime(problems: Problems, path: string, value: number): boolean {
  if (value !== 0 && (!Number.isSafeInteger(value) || value < 0)) {
    problems.add(path, `must be epoch milliseconds or 0, got ${value}`);
    return false;
  }
  return true;
}
