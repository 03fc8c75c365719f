/** A position in decimal degrees, longitude first (the shape of commonV1.GeoPoint). */
export interface LngLat {
  lng: number;
  lat: number;
}

/** A polygon whose rings are closed (first point equals last): exterior plus holes. */
export interface PolygonRings {
  exterior: LngLat[];
  holes: LngLat[][];
}

/** Several non-overlapping polygons. */
export type MultiPolygonRings = PolygonRings[];

export interface BBox {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

/** A geodesic circle: centre in decimal degrees, radius in metres. */
export interface GeoCircle {
  center: LngLat;
  radiusM: number;
}

export function bboxOfRings(rings: readonly (readonly LngLat[])[]): BBox {
  let minLng = Infinity;
  let minLat = Infinity;
  let maxLng = -Infinity;
  let maxLat = -Infinity;
  for (const ring of rings) {
    for (const p of ring) {
      if (p.lng < minLng) minLng = p.lng;
      if (p.lng > maxLng) maxLng = p.lng;
      if (p.lat < minLat) minLat = p.lat;
      if (p.lat > maxLat) maxLat = p.lat;
    }
  }
  return { minLng, minLat, maxLng, maxLat };
}

export function bboxOfMultiPolygon(polygons: MultiPolygonRings): BBox {
  return bboxOfRings(polygons.map((p) => p.exterior));
}

export function bboxesOverlap(a: BBox, b: BBox): boolean {
  return a.minLng <= b.maxLng && b.minLng <= a.maxLng && a.minLat <= b.maxLat && b.minLat <= a.maxLat;
}

export function bboxContains(outer: BBox, inner: BBox): boolean {
  return outer.minLng <= inner.minLng && outer.maxLng >= inner.maxLng && outer.minLat <= inner.minLat && outer.maxLat >= inner.maxLat;
}
