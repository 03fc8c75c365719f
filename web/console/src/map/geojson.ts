import { direct } from '@stormhook/geometry';
import type { GeoPoint, MultiGeometry, RingPolygon } from '../api/types.js';

/** The GeoJSON the map's sources take (RFC 7946), as much of it as the console draws. */
export type Position = [number, number];
export type Geometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'LineString'; coordinates: Position[] }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] };
export interface Feature {
  type: 'Feature';
  id?: number | string;
  geometry: Geometry;
  properties: Record<string, string | number | boolean | null>;
}
export interface FeatureCollection {
  type: 'FeatureCollection';
  features: Feature[];
}

export const collection = (features: Feature[]): FeatureCollection => ({ type: 'FeatureCollection', features });

const position = (p: GeoPoint): Position => [p.lng, p.lat];

/** interface.md ring form to GeoJSON polygon rings. */
export function ringPolygonCoordinates(polygon: RingPolygon): Position[][] {
  return [polygon.exterior.map(position), ...(polygon.holes ?? []).map((hole) => hole.map(position))];
}

/** interface.md multi form to a GeoJSON MultiPolygon. */
export function multiGeometry(geometry: MultiGeometry): Geometry {
  return { type: 'MultiPolygon', coordinates: geometry.polygons.map(ringPolygonCoordinates) };
}

export function ringGeometry(polygon: RingPolygon): Geometry {
  return { type: 'Polygon', coordinates: ringPolygonCoordinates(polygon) };
}

const DEG = Math.PI / 180;

/**
 * Where a storm cell's centroid is expected over the next hour, straight on at its speed and heading
 * (the stream sends the same LINEAR_EXTRAPOLATION; this draws it for the cells the initial page loads).
 * Speed in km/h, direction in degrees clockwise from north, the direction of travel.
 */
export function linearPath(centroid: GeoPoint, speedKmh: number, directionDeg: number, horizonMinutes = 60, stepMinutes = 10): Position[] {
  const points: Position[] = [];
  for (let minutes = 0; minutes <= horizonMinutes; minutes += stepMinutes) {
    points.push(direct(centroid.lng, centroid.lat, directionDeg * DEG, (speedKmh * 1000 * minutes) / 60));
  }
  return points;
}

/** A geodesic circle as a polygon ring (a point alarm's area), `steps` vertices. */
export function circlePolygon(center: GeoPoint, radiusM: number, steps = 64): Geometry {
  const ring: Position[] = [];
  for (let i = 0; i <= steps; i += 1) ring.push(direct(center.lng, center.lat, ((i % steps) / steps) * 2 * Math.PI, radiusM));
  return { type: 'Polygon', coordinates: [ring] };
}

/** Bounds [[minLng, minLat], [maxLng, maxLat]] of every position of some geometries, undefined for none. */
export function boundsOf(geometries: Geometry[]): [Position, Position] | undefined {
  let minLng = Infinity;
  let minLat = Infinity;
  let maxLng = -Infinity;
  let maxLat = -Infinity;
  const visit = (p: Position) => {
    minLng = Math.min(minLng, p[0]);
    maxLng = Math.max(maxLng, p[0]);
    minLat = Math.min(minLat, p[1]);
    maxLat = Math.max(maxLat, p[1]);
  };
  for (const g of geometries) {
    if (g.type === 'Point') visit(g.coordinates);
    else if (g.type === 'LineString') g.coordinates.forEach(visit);
    else if (g.type === 'Polygon') g.coordinates.forEach((r) => r.forEach(visit));
    else g.coordinates.forEach((p) => p.forEach((r) => r.forEach(visit)));
  }
  return Number.isFinite(minLng)
    ? [
        [minLng, minLat],
        [maxLng, maxLat],
      ]
    : undefined;
}
