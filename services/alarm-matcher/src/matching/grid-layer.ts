import type { Grid } from '../geometry/grid.js';
import { PreparedCircle } from '../geometry/prepared-circle.js';
import type { BBox } from '../geometry/types.js';
import type { AreaEntry } from './area-entry.js';

/** Doubles per circle in a packed cell: centre lng, centre lat, metres per degree of lng, radius². */
export const CIRCLE_STRIDE = 4;

/**
 * Areas filed on one grid: per cell, those covering it fully and those covering it in part. For
 * circles the partial lists also come packed into one Float64Array per cell, so the test the hot
 * path runs most (is the strike inside this circle?) reads contiguous memory instead of following
 * three pointers per circle. Lists are rebuilt on change, which is rare next to matching.
 */
export class GridLayer {
  private readonly full: Array<AreaEntry[] | undefined>;
  private readonly partial: Array<AreaEntry[] | undefined>;
  private readonly packed: Array<Float64Array | undefined>;

  constructor(readonly grid: Grid) {
    this.full = new Array(grid.size);
    this.partial = new Array(grid.size);
    this.packed = new Array(grid.size);
  }

  add(entry: AreaEntry, cover: { full: readonly number[]; partial: readonly number[] }): void {
    for (const cell of cover.full) (this.full[cell] ??= []).push(entry);
    for (const cell of cover.partial) {
      (this.partial[cell] ??= []).push(entry);
      this.repack(cell);
    }
  }

  remove(entry: AreaEntry): void {
    for (const cell of entry.cells) {
      for (const lists of [this.full, this.partial]) {
        const list = lists[cell];
        if (!list) continue;
        const kept = list.filter((other) => other !== entry);
        lists[cell] = kept.length > 0 ? kept : undefined;
      }
      this.repack(cell);
    }
  }

  private repack(cell: number): void {
    const list = this.partial[cell];
    if (!list || !list.every((entry) => entry.shape instanceof PreparedCircle)) {
      this.packed[cell] = undefined;
      return;
    }
    const packed = new Float64Array(list.length * CIRCLE_STRIDE);
    list.forEach((entry, i) => {
      const circle = entry.shape as PreparedCircle;
      packed.set([circle.center[0], circle.center[1], circle.kx, circle.radiusSquared], i * CIRCLE_STRIDE);
    });
    this.packed[cell] = packed;
  }

  fullAt(cell: number): AreaEntry[] | undefined {
    return this.full[cell];
  }

  partialAt(cell: number): AreaEntry[] | undefined {
    return this.partial[cell];
  }

  /** The partial circles of a cell packed as {@link CIRCLE_STRIDE} doubles each, in partialAt order. */
  packedCirclesAt(cell: number): Float64Array | undefined {
    return this.packed[cell];
  }

  /** Every area on the cells the box overlaps (an area may repeat; callers de-duplicate by stamp). */
  *within(box: BBox): Generator<AreaEntry> {
    for (const cell of this.grid.cellsIn(box)) {
      for (const list of [this.full[cell], this.partial[cell]]) if (list) yield* list;
    }
  }
}
