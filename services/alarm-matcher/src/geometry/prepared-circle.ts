import type { Grid } from './grid.js';
import { bboxesOverlap, metresPerDegreeLat, metresPerDegreeLng, pointToMultiDistanceM } from './planar.js';
import type { CellCover, PreparedShape } from './prepared-shape.js';
import type { BBox, MultiPolygon, Position } from './types.js';

/** A point alarm's circle (centre and radius in metres) in the local projection around its centre. */
export class PreparedCircle implements PreparedShape {
  readonly bbox: BBox;
  readonly reference: Position;
  /** Metres per degree of longitude and latitude at the centre, and the squared radius: read by the matching hot path. */
  readonly kx: number;
  readonly ky: number;
  readonly radiusSquared: number;

  constructor(
    readonly center: Position,
    readonly radiusM: number,
  ) {
    this.reference = center;
    this.kx = metresPerDegreeLng(center[1]);
    this.ky = metresPerDegreeLat();
    this.radiusSquared = radiusM * radiusM;
    const dLng = radiusM / this.kx;
    const dLat = radiusM / this.ky;
    this.bbox = { minLng: center[0] - dLng, minLat: center[1] - dLat, maxLng: center[0] + dLng, maxLat: center[1] + dLat };
  }

  /** Distance from the centre in metres. */
  distanceM(lng: number, lat: number): number {
    const dx = (lng - this.center[0]) * this.kx;
    const dy = (lat - this.center[1]) * this.ky;
    return Math.sqrt(dx * dx + dy * dy);
  }

  contains(lng: number, lat: number): boolean {
    const dx = (lng - this.center[0]) * this.kx;
    const dy = (lat - this.center[1]) * this.ky;
    return dx * dx + dy * dy <= this.radiusSquared;
  }

  intersects(other: MultiPolygon, otherBox: BBox): boolean {
    if (!bboxesOverlap(this.bbox, otherBox)) return false;
    return pointToMultiDistanceM(this.center, other) <= this.radiusM;
  }

  cover(grid: Grid): CellCover {
    const full: number[] = [];
    const partial: number[] = [];
    const [cx, cy] = this.center;
    for (const cell of grid.cellsIn(this.bbox)) {
      const box = grid.bounds(cell);
      const nearX = Math.min(Math.max(cx, box.minLng), box.maxLng);
      const nearY = Math.min(Math.max(cy, box.minLat), box.maxLat);
      if (!this.contains(nearX, nearY)) continue;
      const farX = cx - box.minLng > box.maxLng - cx ? box.minLng : box.maxLng;
      const farY = cy - box.minLat > box.maxLat - cy ? box.minLat : box.maxLat;
      (this.contains(farX, farY) ? full : partial).push(cell);
    }
    return { full, partial };
  }
}
