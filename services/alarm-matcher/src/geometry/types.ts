/** [longitude, latitude] in decimal degrees (WGS 84), GeoJSON order. */
export type Position = readonly [number, number];
/** A closed ring: first position equals last. */
export type Ring = readonly Position[];

export interface PolygonRings {
  exterior: Ring;
  holes: readonly Ring[];
}

/** Parts that do not overlap. */
export type MultiPolygon = readonly PolygonRings[];

export interface BBox {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

export const EMPTY_BBOX: BBox = { minLng: Infinity, minLat: Infinity, maxLng: -Infinity, maxLat: -Infinity };
