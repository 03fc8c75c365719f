/**
 * The one geometry vocabulary of the platform, in GeoJSON order (RFC 7946): a position is
 * [longitude, latitude] in WGS 84 decimal degrees. Readonly throughout: shapes are shared by caches,
 * indexes and responses, so nothing may mutate them in place.
 */
export type Position = readonly [lng: number, lat: number];

/** A closed ring: at least four positions, the first equal to the last. */
export type Ring = readonly Position[];

/** A polygon: its exterior ring and its holes. */
export interface Polygon {
  readonly exterior: Ring;
  readonly holes: readonly Ring[];
}

/** One or more polygons that do not overlap; a single polygon is a one-part multipolygon. */
export type MultiPolygon = readonly Polygon[];

/** A box in decimal degrees (edges included). */
export interface BBox {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

/** A circle on the ground: centre and geodesic radius in metres. */
export interface Circle {
  readonly center: Position;
  readonly radiusM: number;
}
