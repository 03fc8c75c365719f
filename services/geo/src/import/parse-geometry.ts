import { bboxContains, type BBox, type MultiPolygon, type Polygon, type Position, type Ring } from '@stormhook/geometry';
import { positionProblem } from '../domain/geometry/position.js';
import { ringProblem } from '../domain/geometry/ring.js';
import { polygonFromCoordinates } from '../domain/geometry/geojson-coordinates.js';

export type GeometryOutcome = { ok: true; geometry: MultiPolygon } | { ok: false; reason: string };

function fail(reason: string): GeometryOutcome {
  return { ok: false, reason };
}

function parseRing(raw: unknown, where: string, envelope: BBox): Ring | string {
  if (!Array.isArray(raw)) return `${where} is not an array of positions`;
  const ring: Position[] = [];
  for (let i = 0; i < raw.length; i++) {
    const p: unknown = raw[i];
    if (!Array.isArray(p) || p.length < 2 || typeof p[0] !== 'number' || typeof p[1] !== 'number') {
      return `${where} position ${i} is not [lng, lat]`;
    }
    const [lng, lat] = p as [number, number];
    const problem = positionProblem(lng, lat);
    if (problem) return `${where} position ${i}: ${problem}`;
    if (!bboxContains(envelope, lng, lat)) {
      const box = [envelope.minLng, envelope.minLat, envelope.maxLng, envelope.maxLat].join(', ');
      return `${where} position ${i} [${lng}, ${lat}] is outside the country's envelope [${box}] (lat/lng swapped?)`;
    }
    ring.push([lng, lat]); // a third (altitude) member is dropped
  }
  const problem = ringProblem(ring);
  return problem ? `${where} ${problem}` : ring;
}

function parsePolygon(raw: unknown, where: string, envelope: BBox): Polygon | string {
  if (!Array.isArray(raw) || raw.length === 0) return `${where} has no rings`;
  const rings: Ring[] = [];
  for (let r = 0; r < raw.length; r++) {
    const ring = parseRing(raw[r], `${where} ring ${r}`, envelope);
    if (typeof ring === 'string') return ring;
    rings.push(ring);
  }
  return polygonFromCoordinates(rings);
}

/**
 * A GeoJSON Polygon or MultiPolygon, checked ring by ring (closed, at least four positions, finite,
 * inside WGS 84 and the country's envelope, non-zero area) and normalised to a multi-polygon of
 * the platform's polygons. Other geometry types are refused: a point or line has no inside to resolve.
 */
export function parseAreaGeometry(geometry: unknown, envelope: BBox): GeometryOutcome {
  if (typeof geometry !== 'object' || geometry === null) return fail('has no geometry');
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  if (type === 'Polygon') {
    const polygon = parsePolygon(coordinates, 'polygon 0', envelope);
    return typeof polygon === 'string' ? fail(polygon) : { ok: true, geometry: [polygon] };
  }
  if (type === 'MultiPolygon') {
    if (!Array.isArray(coordinates) || coordinates.length === 0) return fail('MultiPolygon has no polygons');
    const parts: Polygon[] = [];
    for (let p = 0; p < coordinates.length; p++) {
      const polygon = parsePolygon(coordinates[p], `polygon ${p}`, envelope);
      if (typeof polygon === 'string') return fail(polygon);
      parts.push(polygon);
    }
    return { ok: true, geometry: parts };
  }
  return fail(`geometry type ${JSON.stringify(type)} is not Polygon or MultiPolygon`);
}
