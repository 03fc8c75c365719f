import { cpus, platform, release, totalmem } from 'node:os';

export interface BenchResult {
  /** Which benchmark, e.g. `geo point resolution`. */
  bench: string;
  /** What was measured, e.g. `throughput` or `p99 latency`. */
  metric: string;
  value: number;
  /** e.g. `resolutions/s`, `ms`. */
  unit: string;
  /** Conditions that matter for reading the figure (load, sizes). */
  note?: string;
}

/** Prefix of the lines `npm run bench` collects into bench/RESULTS.md. */
export const BENCH_RESULT_PREFIX = 'bench-result ';

/**
 * Prints one figure in the form the bench runner collects (one JSON object per line), beside
 * whatever human-readable output the benchmark prints itself.
 */
export function reportBench(result: BenchResult): void {
  process.stdout.write(`${BENCH_RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

/** The machine a figure was measured on, for the report. */
export function machineDescription(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpu}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, ${platform()} ${release()}, Node ${process.version}`;
}
