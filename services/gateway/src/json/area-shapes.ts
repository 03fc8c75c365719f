import type { commonV1, geoV1 } from '@stormhook/proto';

/** interface.md 2.1 GeoPoint / Polygon (ring form) / Geometry (multi form). */
export interface GeoPointJson {
  lng: number;
  lat: number;
}
export interface PolygonJson {
  exterior: GeoPointJson[];
  holes: GeoPointJson[][];
}
export interface GeometryJson {
  polygons: PolygonJson[];
}

function ring(r: commonV1.LinearRing | null | undefined): GeoPointJson[] {
  return (r?.points ?? []).map((p) => ({ lng: p.lng, lat: p.lat }));
}

function polygon(p: commonV1.Polygon): PolygonJson {
  return { exterior: ring(p.exterior), holes: p.holes.map(ring) };
}

export function multiForm(geometry: commonV1.MultiPolygon | null | undefined): GeometryJson {
  return { polygons: (geometry?.polygons ?? []).map(polygon) };
}

/** Planar shoelace area of the exterior minus holes, in square degrees: only used to rank parts. */
function roughArea(p: commonV1.Polygon): number {
  const area = (r: commonV1.LinearRing | null | undefined) => {
    const pts = r?.points ?? [];
    let sum = 0;
    for (let i = 1; i < pts.length; i++) sum += pts[i - 1]!.lng * pts[i]!.lat - pts[i]!.lng * pts[i - 1]!.lat;
    return Math.abs(sum) / 2;
  };
  return area(p.exterior) - p.holes.reduce((total, h) => total + area(h), 0);
}

/**
 * The ring form holds one polygon. For an area made of several parts (a city with islands) it
 * carries the largest part, the mainland; the multi-form endpoints carry every part.
 */
export function ringForm(geometry: commonV1.MultiPolygon | null | undefined): PolygonJson {
  const parts = geometry?.polygons ?? [];
  const largest = parts.reduce<commonV1.Polygon | undefined>((best, p) => (!best || roughArea(p) > roughArea(best) ? p : best), undefined);
  return largest ? polygon(largest) : { exterior: [], holes: [] };
}

export type Form = 'ring' | 'multi';

export function cityJson(city: geoV1.City, form: Form) {
  return {
    id: city.id,
    name: city.name,
    licensePlateCode: city.licensePlateCode ?? null,
    ...(form === 'ring' ? { polygon: ringForm(city.geometry) } : { geometry: multiForm(city.geometry) }),
  };
}

export function districtJson(district: geoV1.District, form: Form) {
  return {
    id: district.id,
    name: district.name,
    ...(form === 'ring' ? { polygon: ringForm(district.geometry) } : { geometry: multiForm(district.geometry) }),
    ...(district.city ? { city: cityJson(district.city, form) } : {}),
  };
}

export function neighbourhoodJson(n: geoV1.Neighbourhood, form: Form) {
  return {
    id: n.id,
    name: n.name,
    polygon: ringForm(n.geometry),
    ...(n.district ? { district: districtJson(n.district, form) } : {}),
  };
}
