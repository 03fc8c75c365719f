import type { BBox } from '@stormhook/geometry';
import type { Grid } from '../geometry/grid.js';
import { PreparedCircle } from '../geometry/prepared-circle.js';
import { FILTER_STRIDE, type AreaEntry } from './area-entry.js';

/**
 * Doubles per circle in a packed cell: its flat screen (centre lng, centre lat, metres per degree of
 * lng and of lat, the squared inner and outer radii of the screen's tolerance band; see
 * GeodesicCircle), then its registration's compiled lightning
 * filter (FILTER_STRIDE doubles, see area-entry.ts) whose type code is {@link NO_LIGHTNING} when no
 * registration wants lightning and {@link SEVERAL} when several do (then the entry's own list decides).
 */
/** Offset of the lightning filter in a packed circle. */
export const CIRCLE_FILTER = 6;
export const CIRCLE_STRIDE = CIRCLE_FILTER + FILTER_STRIDE;
export const NO_LIGHTNING = 254;
export const SEVERAL = 255;

/**
 * Areas filed on one grid: per cell, those covering it fully and those covering it in part. For
 * circles the partial lists also come packed into one Float64Array per cell, with the lightning
 * filter of the circle's registration, so the loop the hot path runs most (is the strike inside this
 * circle, and does it pass the filter?) reads contiguous memory and touches an area only on a match.
 * Packing is redone lazily when a cell changed.
 */
export class GridLayer {
  private readonly full: Array<AreaEntry[] | undefined>;
  private readonly partial: Array<AreaEntry[] | undefined>;
  private readonly packed: Array<Float64Array | undefined>;
  private readonly dirty: Uint8Array;

  constructor(readonly grid: Grid) {
    this.full = new Array(grid.size);
    this.partial = new Array(grid.size);
    this.packed = new Array(grid.size);
    this.dirty = new Uint8Array(grid.size);
  }

  add(entry: AreaEntry): void {
    const partial = new Set(entry.partialCells);
    for (const cell of entry.cells) {
      if (partial.has(cell)) {
        (this.partial[cell] ??= []).push(entry);
        this.dirty[cell] = 1;
      } else {
        (this.full[cell] ??= []).push(entry);
      }
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
      this.dirty[cell] = 1;
    }
  }

  /** The entry's registrations changed: its packed filters must be redone. */
  touched(entry: AreaEntry): void {
    for (const cell of entry.partialCells) this.dirty[cell] = 1;
  }

  private repack(cell: number): Float64Array | undefined {
    this.dirty[cell] = 0;
    const list = this.partial[cell];
    if (!list || !list.every((entry) => entry.shape instanceof PreparedCircle)) {
      this.packed[cell] = undefined;
      return undefined;
    }
    const packed = new Float64Array(list.length * CIRCLE_STRIDE);
    list.forEach((entry, i) => {
      const circle = entry.shape as PreparedCircle;
      const at = i * CIRCLE_STRIDE;
      const { scale, innerSquared, outerSquared } = circle.disc;
      packed.set([scale.lng, scale.lat, scale.kx, scale.ky, innerSquared, outerSquared], at);
      const count = entry.lightning.length;
      if (count === 1) packed.set(entry.lightningFilters, at + CIRCLE_FILTER);
      else packed[at + CIRCLE_FILTER] = count === 0 ? NO_LIGHTNING : SEVERAL;
    });
    this.packed[cell] = packed;
    return packed;
  }

  fullAt(cell: number): AreaEntry[] | undefined {
    return this.full[cell];
  }

  partialAt(cell: number): AreaEntry[] | undefined {
    return this.partial[cell];
  }

  /** The partial circles of a cell packed as {@link CIRCLE_STRIDE} doubles each, in partialAt order. */
  packedCirclesAt(cell: number): Float64Array | undefined {
    return this.dirty[cell] === 1 ? this.repack(cell) : this.packed[cell];
  }

  /** Every area on the cells the box overlaps (an area may repeat; callers de-duplicate by stamp). */
  *within(box: BBox): Generator<AreaEntry> {
    for (const cell of this.grid.cellsIn(box)) {
      for (const list of [this.full[cell], this.partial[cell]]) if (list) yield* list;
    }
  }
}
