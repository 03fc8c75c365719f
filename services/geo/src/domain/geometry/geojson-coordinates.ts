import type { MultiPolygon, Polygon, Ring } from '@stormhook/geometry';

/**
 * The coordinates member of a GeoJSON MultiPolygon (RFC 7946 3.1.7): per polygon its rings, the
 * exterior first. The form boundary files arrive in and areas are stored in; the domain works on
 * the platform's Polygon.
 */
export type MultiPolygonCoordinates = readonly (readonly Ring[])[];

export function polygonFromCoordinates(rings: readonly Ring[]): Polygon {
  return { exterior: rings[0] ?? [], holes: rings.slice(1) };
}

export function fromCoordinates(coordinates: MultiPolygonCoordinates): MultiPolygon {
  return coordinates.map(polygonFromCoordinates);
}

export function toCoordinates(geometry: MultiPolygon): Ring[][] {
  return geometry.map((polygon) => [polygon.exterior, ...polygon.holes]);
}
