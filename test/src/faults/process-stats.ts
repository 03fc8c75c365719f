import type { monitorEventLoopDelay } from 'node:perf_hooks';

type IntervalHistogram = ReturnType<typeof monitorEventLoopDelay>;

/** Memory and event-loop delay of this process; the histogram is in nanoseconds. */
export function processStats(histogram: IntervalHistogram): { rssMb: number; heapMb: number; eldP50Ms: number; eldP99Ms: number } {
  const memory = process.memoryUsage();
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    rssMb: round(memory.rss / 2 ** 20),
    heapMb: round(memory.heapUsed / 2 ** 20),
    eldP50Ms: round(histogram.percentile(50) / 1e6),
    eldP99Ms: round(histogram.percentile(99) / 1e6),
  };
}
