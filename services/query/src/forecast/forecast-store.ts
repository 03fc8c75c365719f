import { distanceM } from '@stormhook/geometry';
import type { weatherV1 } from '@stormhook/proto';
import type { SourceMetric } from './metric-catalogue.js';

const HOUR = 3_600_000;
/** Buckets of the nearest-cell search, degrees. */
const BUCKET_DEG = 0.25;

export interface ForecastCell {
  id: string;
  lng: number;
  lat: number;
  elevationM?: number;
  firstHour: number;
  hourCount: number;
  /** Hourly values per metric (NaN = missing). */
  series: Map<SourceMetric, Float32Array>;
}

export interface ForecastRun {
  runId: string;
  model: string;
  issue: number;
  chunkCount: number;
  chunksSeen: Set<number>;
  cells: Map<string, ForecastCell>;
  /** Revision held per event id of the run. */
  revisions: Map<string, number>;
  buckets: Map<string, ForecastCell[]>;
}

export interface NearestCell {
  run: ForecastRun;
  cell: ForecastCell;
  distanceM: number;
}

const bucketKey = (lat: number, lng: number) => `${Math.floor(lat / BUCKET_DEG)}:${Math.floor(lng / BUCKET_DEG)}`;

export function valueAt(cell: ForecastCell, metric: SourceMetric, epochMs: number): number {
  const values = cell.series.get(metric);
  const i = Math.round((epochMs - cell.firstHour) / HOUR);
  if (!values || i < 0 || i >= values.length) return NaN;
  return values[i]!;
}

/**
 * The forecast runs the service holds, in memory (a 0.5-degree run over Turkey with 20 metrics for
 * 7 days is about 7 MB). A run arrives as many events (chunks split by area); it is complete once
 * every chunk index was seen. Answers come from the latest run covering a point; a complete run
 * makes every older run of its model superseded, and those are purged.
 */
export class ForecastStore {
  private readonly runs = new Map<string, ForecastRun>();

  /** Whether the event adds something: its run is not superseded and its revision is new. */
  wants(event: weatherV1.ForecastEvent): boolean {
    const run = this.runs.get(event.runId);
    if (run) return (run.revisions.get(event.eventId) ?? 0) < (event.revision?.revision ?? 0);
    const newestComplete = this.newestComplete(event.model);
    return !newestComplete || event.issueEpochMs >= newestComplete.issue;
  }

  apply(event: weatherV1.ForecastEvent): void {
    const revision = event.revision?.revision ?? 0;
    let run = this.runs.get(event.runId);
    if (!run) {
      run = {
        runId: event.runId,
        model: event.model,
        issue: event.issueEpochMs,
        chunkCount: event.runChunkCount,
        chunksSeen: new Set(),
        cells: new Map(),
        revisions: new Map(),
        buckets: new Map(),
      };
      this.runs.set(event.runId, run);
    }
    if ((run.revisions.get(event.eventId) ?? 0) >= revision) return;
    run.revisions.set(event.eventId, revision);
    run.chunksSeen.add(event.runChunkIndex);
    run.chunkCount = Math.max(run.chunkCount, event.runChunkCount);
    for (const c of event.cells) {
      if (!c.location) continue;
      const series = new Map<SourceMetric, Float32Array>();
      for (const s of c.series) {
        if (s.metric !== 'FORECAST_METRIC_UNSPECIFIED') series.set(s.metric, Float32Array.from(s.values));
      }
      const cell: ForecastCell = {
        id: c.cellId,
        lng: c.location.lng,
        lat: c.location.lat,
        ...(c.elevationM !== undefined ? { elevationM: c.elevationM } : {}),
        firstHour: event.firstHourEpochMs,
        hourCount: event.hourCount,
        series,
      };
      const previous = run.cells.get(cell.id);
      run.cells.set(cell.id, cell);
      const key = bucketKey(cell.lat, cell.lng);
      const bucket = (run.buckets.get(key) ?? []).filter((x) => x !== previous);
      bucket.push(cell);
      run.buckets.set(key, bucket);
    }
  }

  private isComplete(run: ForecastRun): boolean {
    return run.chunkCount > 0 && run.chunksSeen.size >= run.chunkCount;
  }

  private newestComplete(model: string): ForecastRun | undefined {
    let best: ForecastRun | undefined;
    for (const run of this.runs.values()) {
      if (run.model === model && this.isComplete(run) && (!best || run.issue > best.issue)) best = run;
    }
    return best;
  }

  /** Runs older than a complete run of the same model: nothing answers from them any more. */
  superseded(): ForecastRun[] {
    return [...this.runs.values()].filter((run) => {
      const newest = this.newestComplete(run.model);
      return newest !== undefined && run.issue < newest.issue;
    });
  }

  /** Runs whose last forecast hour ended before `cutoff`. */
  expired(cutoff: number): ForecastRun[] {
    return [...this.runs.values()].filter((run) => {
      let end = -Infinity;
      for (const cell of run.cells.values()) end = Math.max(end, cell.firstHour + cell.hourCount * HOUR);
      return end < cutoff;
    });
  }

  remove(runId: string): void {
    this.runs.delete(runId);
  }

  /**
   * The nearest cell, within `maxDistanceM`, of the latest run (by issue time) that has a cell
   * that close: a run still arriving answers where its chunks are in, older runs elsewhere.
   */
  nearest(lng: number, lat: number, maxDistanceM: number): NearestCell | undefined {
    const runs = [...this.runs.values()].sort((a, b) => b.issue - a.issue);
    const dLat = maxDistanceM / 110_574 + BUCKET_DEG;
    const dLng = maxDistanceM / (111_320 * Math.max(0.01, Math.cos(((Math.abs(lat) + dLat) * Math.PI) / 180))) + BUCKET_DEG;
    for (const run of runs) {
      let best: NearestCell | undefined;
      for (let by = Math.floor((lat - dLat) / BUCKET_DEG); by <= Math.floor((lat + dLat) / BUCKET_DEG); by++) {
        for (let bx = Math.floor((lng - dLng) / BUCKET_DEG); bx <= Math.floor((lng + dLng) / BUCKET_DEG); bx++) {
          for (const cell of run.buckets.get(`${by}:${bx}`) ?? []) {
            const d = distanceM([lng, lat], [cell.lng, cell.lat]);
            if (d <= maxDistanceM && (!best || d < best.distanceM)) best = { run, cell, distanceM: d };
          }
        }
      }
      if (best) return best;
    }
    return undefined;
  }

  get runCount(): number {
    return this.runs.size;
  }

  runIds(): string[] {
    return [...this.runs.keys()];
  }
}
