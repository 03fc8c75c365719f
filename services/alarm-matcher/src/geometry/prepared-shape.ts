import type { BBox, MultiPolygon, Position } from '@stormhook/geometry';
import type { Grid } from './grid.js';

/** How a shape lies over the grid: cells it covers entirely, and cells it only partly covers. */
export interface CellCover {
  full: number[];
  partial: number[];
}

/** An area a registration watches, prepared for fast point and shape tests. */
export interface PreparedShape {
  readonly bbox: BBox;
  /** Reference point of distances in payloads: the circle centre, or the polygon's centroid. */
  readonly reference: Position;
  contains(lng: number, lat: number): boolean;
  /** Metres from the point to the shape's edge when it lies outside; 0 inside or on the edge. */
  distanceOutsideM(lng: number, lat: number): number;
  /** Whether the shape and `other` (with its bbox) share a point. */
  intersects(other: MultiPolygon, otherBox: BBox): boolean;
  cover(grid: Grid): CellCover;
}
