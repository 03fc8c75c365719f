/**
 * The shapes of stormhook.common.v1 as ingest validates and publishes them (rings closed, first
 * point repeated last). They are wire shapes: computations convert them to the platform's geometry
 * (@stormhook/geometry) with rings.ts.
 */

/** A position in decimal degrees, as the common.v1 GeoPoint carries it. */
export interface LngLat {
  lng: number;
  lat: number;
}

export interface Ring {
  points: LngLat[];
}

export interface PolygonShape {
  exterior: Ring;
  holes: Ring[];
}

export interface MultiPolygonShape {
  polygons: PolygonShape[];
}
