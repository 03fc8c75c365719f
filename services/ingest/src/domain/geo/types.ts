/** A position in decimal degrees, longitude first like GeoJSON and the common.v1 GeoPoint. */
export interface LngLat {
  lng: number;
  lat: number;
}

/** A box in decimal degrees. */
export interface BBox {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

/** The shapes of stormhook.common.v1 as this service handles them (rings closed, first point repeated last). */
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
