import { bboxesOverlap, GeodesicCircle, type BBox, type MultiPolygon, type Position } from '@stormhook/geometry';
import type { Grid } from './grid.js';
import type { CellCover, PreparedShape } from './prepared-shape.js';

/**
 * A point alarm's circle: a geodesic disc (centre and radius in metres on WGS 84), the same disc the
 * query service crops to. Its flat screen (see GeodesicCircle) is what the matching hot path reads.
 */
export class PreparedCircle implements PreparedShape {
  readonly bbox: BBox;
  readonly reference: Position;
  readonly disc: GeodesicCircle;

  constructor(
    readonly center: Position,
    readonly radiusM: number,
  ) {
    this.disc = new GeodesicCircle(center, radiusM);
    this.bbox = this.disc.bbox;
    this.reference = center;
  }

  /** Geodesic distance from the centre in metres. */
  distanceM(lng: number, lat: number): number {
    return this.disc.distanceM(lng, lat);
  }

  contains(lng: number, lat: number): boolean {
    return this.disc.contains(lng, lat);
  }

  distanceOutsideM(lng: number, lat: number): number {
    return Math.max(0, this.disc.distanceM(lng, lat) - this.radiusM);
  }

  intersects(other: MultiPolygon, otherBox: BBox): boolean {
    if (!bboxesOverlap(this.bbox, otherBox)) return false;
    return this.disc.touchesMultiPolygon(other);
  }

  cover(grid: Grid): CellCover {
    const full: number[] = [];
    const partial: number[] = [];
    const [cx, cy] = this.center;
    for (const cell of grid.cellsIn(this.bbox)) {
      const box = grid.bounds(cell);
      const nearX = Math.min(Math.max(cx, box.minLng), box.maxLng);
      const nearY = Math.min(Math.max(cy, box.minLat), box.maxLat);
      // The flat metric is a plane, so the clamped point is the cell's nearest in it: beyond the
      // screen's outer radius, no point of the cell is within the geodesic radius.
      if (this.disc.scale.distanceSquared(nearX, nearY) > this.disc.outerSquared) continue;
      // Geodesic distance along a parallel grows with the longitude difference and along a meridian has
      // one minimum, so a cell whose four corners are inside is inside everywhere.
      const inside =
        this.contains(box.minLng, box.minLat) &&
        this.contains(box.maxLng, box.minLat) &&
        this.contains(box.maxLng, box.maxLat) &&
        this.contains(box.minLng, box.maxLat);
      (inside ? full : partial).push(cell);
    }
    return { full, partial };
  }
}
