import type { Comparison, ResolvedThreshold } from '@stormhook/webhooks';

// The table itself has one owner, @stormhook/webhooks (the gateway documents it from there); the
// matcher adds how a daily value is judged against it.
export {
  FORECAST_THRESHOLDS,
  allowedNames,
  resolveThreshold,
  type Comparison,
  type ResolvedThreshold,
  type ThresholdMetric,
  type ThresholdScale,
} from '@stormhook/webhooks';

/** Whether a daily value breaches the threshold (NaN never does). */
export function breaches(threshold: Pick<ResolvedThreshold, 'value' | 'comparison'>, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  return threshold.comparison === '>=' ? value >= threshold.value : value <= threshold.value;
}

/** Of two daily values, the one closer to breaching (worst weather): the max for >=, the min for <=. */
export function worse(comparison: Comparison, a: number, b: number): number {
  return comparison === '>=' ? Math.max(a, b) : Math.min(a, b);
}
