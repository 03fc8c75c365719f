/**
 * Geometry in GeoJSON order (RFC 7946): a position is [longitude, latitude] in WGS 84 decimal degrees.
 * Readonly throughout: areas are shared by the catalogue, the index and every response, so nothing
 * may mutate them in place.
 */
export type Position = readonly [lng: number, lat: number];

/** A closed ring: at least four positions, the first equal to the last. */
export type Ring = readonly Position[];

/** Exterior ring first, then holes. */
export type PolygonRings = readonly Ring[];

/** One or more polygons that do not overlap; a single polygon is a one-part multi-polygon. */
export type MultiPolygon = readonly PolygonRings[];

/** [minLng, minLat, maxLng, maxLat]. */
export type BBox = readonly [minLng: number, minLat: number, maxLng: number, maxLat: number];

/** A circle on the ground: centre and radius in metres. */
export interface Circle {
  readonly center: Position;
  readonly radiusM: number;
}

/** The query shapes of "areas intersecting ...". */
export type QueryShape =
  | { readonly kind: 'polygon'; readonly polygon: PolygonRings }
  | { readonly kind: 'circle'; readonly circle: Circle };
