import { distanceM, LocalScale, type BBox, type Position } from '@stormhook/geometry';
import { Grid } from '../geometry/grid.js';
import type { DailyValues } from './daily.js';

/** The latest stored forecast of one grid cell, as daily values. */
export interface CellForecast {
  cellId: string;
  location: Position;
  runId: string;
  issueMs: number;
  days: DailyValues[];
}

/** Whether `a` supersedes `b` for one cell: a later issue, or the same issue of a later run id (a stable answer). */
export function supersedes(a: Pick<CellForecast, 'issueMs' | 'runId'>, b: Pick<CellForecast, 'issueMs' | 'runId'>): boolean {
  return a.issueMs > b.issueMs || (a.issueMs === b.issueMs && a.runId > b.runId);
}

/**
 * The stored grid cells of one evaluation, filed on a coarse grid for nearest-cell and in-area
 * searches (a forecast grid has thousands of cells; registrations number up to hundreds of
 * thousands).
 */
export class CellLocator {
  private readonly grid = new Grid(undefined, undefined, undefined, undefined, 0.25);
  private readonly buckets = new Map<number, CellForecast[]>();

  constructor(readonly cells: readonly CellForecast[]) {
    for (const cell of cells) {
      const key = this.grid.cellOf(cell.location[0], cell.location[1]);
      if (key < 0) continue;
      const bucket = this.buckets.get(key);
      if (bucket) bucket.push(cell);
      else this.buckets.set(key, [cell]);
    }
  }

  /** The cell nearest to `point` within `maxDistanceM`, with its distance; undefined when none. */
  nearest(point: Position, maxDistanceM: number): { cell: CellForecast; distanceM: number } | undefined {
    const row = this.grid.row(point[1]);
    const col = this.grid.col(point[0]);
    // A ring of buckets is at least (ring - 1) bucket widths away; 0.25° of longitude is >= 19 km inside the coverage.
    const bucketM = 19_000;
    const maxRing = Math.ceil(maxDistanceM / bucketM) + 1;
    // A slot asks this for up to 100,000 points: candidates are compared by squared distance in the
    // flat local scale around the point (no cosine or root per candidate); the winner's distance is
    // then measured on the ellipsoid as everywhere else. The flat limit is widened by the scale's
    // tolerance so that no cell the geodesic limit admits is dropped.
    const scale = new LocalScale(point[0], point[1]);
    const maxSquared = (maxDistanceM * (1 + scale.tolerance(maxDistanceM)) + 0.001) ** 2;
    let best: CellForecast | undefined;
    let bestSquared = Infinity;
    for (let ring = 0; ring <= maxRing; ring++) {
      if (best && ring > 1 && ((ring - 1) * bucketM) ** 2 > bestSquared) break;
      for (let r = row - ring; r <= row + ring; r++) {
        for (let c = col - ring; c <= col + ring; c++) {
          if (Math.max(Math.abs(r - row), Math.abs(c - col)) !== ring) continue;
          if (r < 0 || c < 0 || r >= this.grid.rows || c >= this.grid.cols) continue;
          for (const cell of this.buckets.get(this.grid.cell(r, c)) ?? []) {
            const squared = scale.distanceSquared(cell.location[0], cell.location[1]);
            if (squared <= maxSquared && squared < bestSquared) {
              best = cell;
              bestSquared = squared;
            }
          }
        }
      }
    }
    if (!best) return undefined;
    const d = distanceM(point, best.location);
    return d <= maxDistanceM ? { cell: best, distanceM: d } : undefined;
  }

  /** Cells inside the box (candidates for an area test). */
  within(box: BBox): CellForecast[] {
    const found: CellForecast[] = [];
    for (const key of this.grid.cellsIn(box)) {
      for (const cell of this.buckets.get(key) ?? []) {
        const [x, y] = cell.location;
        if (x >= box.minLng && x <= box.maxLng && y >= box.minLat && y <= box.maxLat) found.push(cell);
      }
    }
    return found;
  }
}
