import type { BBox } from '@stormhook/geometry';
import { COVERAGE } from '../domain/coverage.js';

/**
 * A uniform longitude/latitude grid over the covered area: 0.1° cells (about 9 km x 11 km over
 * Turkey), 220 x 110 of them. Areas are filed under every cell they touch, marked as covering the
 * cell fully or partly, so matching a point costs one array lookup plus exact tests on the partial
 * areas of one cell only.
 */
export class Grid {
  readonly cols: number;
  readonly rows: number;

  constructor(
    readonly minLng = COVERAGE.minLng,
    readonly minLat = COVERAGE.minLat,
    readonly maxLng = COVERAGE.maxLng,
    readonly maxLat = COVERAGE.maxLat,
    readonly cellDeg = 0.1,
  ) {
    this.cols = Math.ceil((maxLng - minLng) / cellDeg - 1e-9);
    this.rows = Math.ceil((maxLat - minLat) / cellDeg - 1e-9);
  }

  get size(): number {
    return this.cols * this.rows;
  }

  /** Column of a longitude, clamped to the grid. */
  col(lng: number): number {
    return Math.min(this.cols - 1, Math.max(0, Math.floor((lng - this.minLng) / this.cellDeg)));
  }

  /** Row of a latitude, clamped to the grid. */
  row(lat: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((lat - this.minLat) / this.cellDeg)));
  }

  /** The cell holding the point, or -1 outside the grid. */
  cellOf(lng: number, lat: number): number {
    if (!(lng >= this.minLng && lng < this.maxLng && lat >= this.minLat && lat < this.maxLat)) return -1;
    return Math.floor((lat - this.minLat) / this.cellDeg) * this.cols + Math.floor((lng - this.minLng) / this.cellDeg);
  }

  cell(row: number, col: number): number {
    return row * this.cols + col;
  }

  /** The cell's rectangle. */
  bounds(cell: number): BBox {
    const row = Math.floor(cell / this.cols);
    const col = cell % this.cols;
    const minLng = this.minLng + col * this.cellDeg;
    const minLat = this.minLat + row * this.cellDeg;
    return { minLng, minLat, maxLng: minLng + this.cellDeg, maxLat: minLat + this.cellDeg };
  }

  /** Every cell whose rectangle overlaps the box (clamped to the grid; none when fully outside). */
  cellsIn(box: BBox): number[] {
    if (box.maxLng < this.minLng || box.minLng >= this.maxLng || box.maxLat < this.minLat || box.minLat >= this.maxLat) return [];
    const cells: number[] = [];
    const r0 = this.row(box.minLat);
    const r1 = this.row(box.maxLat);
    const c0 = this.col(box.minLng);
    const c1 = this.col(box.maxLng);
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) cells.push(r * this.cols + c);
    return cells;
  }
}
