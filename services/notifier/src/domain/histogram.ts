/**
 * A fixed-bucket histogram that merges by adding: what each notifier instance keeps per account and
 * time bucket, summed over instances and buckets to answer percentiles. A percentile is the upper
 * bound of the bucket holding its rank, capped at the largest value seen: exact to one bucket.
 */
export interface Histogram {
  /** Count per bucket index; only non-empty buckets appear (keys are decimal indexes). */
  counts: Record<string, number>;
  max: number;
}

/** Round-trip times of a receiver, milliseconds: finer where receivers usually answer. */
export const LATENCY_BOUNDS_MS: readonly number[] = [
  5, 10, 25, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1_000, 1_500, 2_000, 3_000, 5_000, 7_500, 10_000, 15_000, 30_000, 60_000,
];

/** Age of the weather on receipt, milliseconds: seconds when live, hours when recovered. */
export const AGE_BOUNDS_MS: readonly number[] = [
  500, 1_000, 2_000, 3_000, 5_000, 7_500, 10_000, 15_000, 20_000, 30_000, 45_000, 60_000, 90_000, 120_000, 180_000, 300_000, 600_000, 900_000, 1_800_000,
  3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000,
];

export const emptyHistogram = (): Histogram => ({ counts: {}, max: 0 });

function bucketIndex(bounds: readonly number[], value: number): number {
  let lo = 0;
  let hi = bounds.length; // index bounds.length: above the last bound
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (value <= (bounds[mid] as number)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function observe(histogram: Histogram, bounds: readonly number[], value: number): void {
  const key = String(bucketIndex(bounds, value));
  histogram.counts[key] = (histogram.counts[key] ?? 0) + 1;
  if (value > histogram.max) histogram.max = value;
}

export function addInto(target: Histogram, source: Histogram): void {
  for (const [key, count] of Object.entries(source.counts)) target.counts[key] = (target.counts[key] ?? 0) + count;
  if (source.max > target.max) target.max = source.max;
}

export const histogramCount = (histogram: Histogram): number => Object.values(histogram.counts).reduce((sum, n) => sum + n, 0);

/** The q-quantile (0 < q <= 1) as the upper bound of its bucket, capped at the maximum; null when empty. */
export function quantile(histogram: Histogram, bounds: readonly number[], q: number): number | null {
  const total = histogramCount(histogram);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  const indexes = Object.keys(histogram.counts)
    .map(Number)
    .sort((a, b) => a - b);
  let seen = 0;
  for (const index of indexes) {
    seen += histogram.counts[String(index)] ?? 0;
    if (seen >= rank) return Math.min(bounds[index] ?? histogram.max, histogram.max);
  }
  return histogram.max;
}
