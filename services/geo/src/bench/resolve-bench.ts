/**
 * Point-resolution benchmark (not a test): loads the boundary files directly (no database), builds
 * the spatial index and resolves random points in Turkey's bounding box on one core.
 *
 *   node --expose-gc services/geo/dist/bench/resolve-bench.js [points=2000000]
 *
 * Reads STORMHOOK_GEO_SOURCE, else ../shared/data/geo beside the repository. Points come from a
 * seeded generator, so runs on one machine are comparable.
 */
import { cpus, platform, release } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRepoRoot } from '@stormhook/config';
import { seeded } from '@stormhook/geometry/testing';
import { createLogger } from '@stormhook/logger';
import { reportBench } from '@stormhook/testing';
import { SpatialIndex } from '../domain/spatial-index.js';
import { resolveGeoSource } from '../import/geo-source.js';
import { parseBoundaries } from '../import/parse-boundaries.js';

/** Turkey's extent in the province file: [minLng, minLat, maxLng, maxLat]. */
const TURKEY_BBOX = [25.665449, 35.80768, 44.817664, 42.104801] as const;

function randomPoints(count: number, seed: number): Float64Array {
  const random = seeded(seed);
  const [x0, y0, x1, y1] = TURKEY_BBOX;
  const points = new Float64Array(count * 2);
  for (let i = 0; i < count; i++) {
    points[2 * i] = x0 + random() * (x1 - x0);
    points[2 * i + 1] = y0 + random() * (y1 - y0);
  }
  return points;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 2_000_000);
  const logger = createLogger({ service: 'geo-bench', level: 'warn' });
  const { source } = resolveGeoSource(process.env['STORMHOOK_GEO_SOURCE'], findRepoRoot(dirname(fileURLToPath(import.meta.url))));

  globalThis.gc?.();
  const before = process.memoryUsage();
  const parsed = await parseBoundaries(source, logger);
  const buildStart = performance.now();
  const index = new SpatialIndex(parsed.areas);
  const buildMs = performance.now() - buildStart;
  globalThis.gc?.();
  const after = process.memoryUsage();

  const points = randomPoints(count, 20261121);
  // Warm-up lets the JIT optimise resolve() before anything is timed.
  for (let i = 0; i < Math.min(count, 200_000); i++) index.resolve(points[2 * i]!, points[2 * i + 1]!);

  let inside = 0;
  let fallback = 0;
  let nowhere = 0;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const r = index.resolve(points[2 * i]!, points[2 * i + 1]!);
    if (!r.city) nowhere++;
    else if (r.city.distanceM === 0) inside++;
    else fallback++;
  }
  const elapsedMs = performance.now() - started;

  // Per-call latency on a sample, minus the cost of reading the clock twice.
  const sample = Math.min(count, 200_000);
  const latencies = new Float64Array(sample);
  let overhead = Infinity;
  for (let i = 0; i < 10_000; i++) {
    const t0 = process.hrtime.bigint();
    overhead = Math.min(overhead, Number(process.hrtime.bigint() - t0));
  }
  for (let i = 0; i < sample; i++) {
    const t0 = process.hrtime.bigint();
    index.resolve(points[2 * i]!, points[2 * i + 1]!);
    latencies[i] = Math.max(0, Number(process.hrtime.bigint() - t0) - overhead);
  }
  latencies.sort();

  const cpu = cpus()[0];
  const counts = index.counts();
  console.log(
    [
      `machine        ${cpu?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${platform()} ${release()}, Node ${process.version}`,
      `areas          ${counts.city} cities, ${counts.district} districts, ${counts.neighbourhood} neighbourhoods (${parsed.rejected.length} rejected)`,
      `index build    ${buildMs.toFixed(0)} ms`,
      `memory         heap used ${mb(after.heapUsed)} (+${mb(after.heapUsed - before.heapUsed)} for areas and index), typed arrays ${mb(after.arrayBuffers)}${globalThis.gc ? '' : ' (run with --expose-gc for exact figures)'}`,
      `points         ${count.toLocaleString('en')} random in [${TURKEY_BBOX.join(', ')}]`,
      `outcome        ${inside} inside a city, ${fallback} by nearest-area fallback, ${nowhere} nowhere`,
      `throughput     ${Math.round(count / (elapsedMs / 1000)).toLocaleString('en')} resolutions/s on one core`,
      `latency        p50 ${percentile(latencies, 0.5).toFixed(0)} ns, p99 ${percentile(latencies, 0.99).toFixed(0)} ns, max ${latencies[sample - 1]!.toFixed(0)} ns (sample of ${sample}, clock overhead ${overhead} ns removed)`,
    ].join('\n'),
  );
  const bench = 'geo point resolution (in-memory index, one core)';
  reportBench({
    bench,
    metric: 'throughput',
    value: Math.round(count / (elapsedMs / 1000)),
    unit: 'resolutions/s',
    note: `${count} random points in Turkey's bbox`,
  });
  reportBench({ bench, metric: 'p50 latency', value: percentile(latencies, 0.5), unit: 'ns' });
  reportBench({ bench, metric: 'p99 latency', value: percentile(latencies, 0.99), unit: 'ns', note: 'p99 is the nearest-area fallback' });
  reportBench({ bench, metric: 'index build', value: Math.round(buildMs), unit: 'ms', note: `${counts.city + counts.district + counts.neighbourhood} areas` });
  reportBench({ bench, metric: 'heap for areas and index', value: Math.round((after.heapUsed - before.heapUsed) / 2 ** 20), unit: 'MiB' });
}

await main();
