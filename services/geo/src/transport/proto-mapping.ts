import type { MultiPolygon, Polygon, Ring } from '@stormhook/geometry';
import { commonV1, geoV1 } from '@stormhook/proto';
import type { AreaLevel, AreaRef } from '../domain/area.js';
import type { CityView, DistrictView, NeighbourhoodView } from '../domain/geo-queries.js';
import type { ResolvedArea } from '../domain/spatial-index.js';

const toLevel: Record<AreaLevel, geoV1.AreaLevel> = {
  city: 'AREA_LEVEL_CITY',
  district: 'AREA_LEVEL_DISTRICT',
  neighbourhood: 'AREA_LEVEL_NEIGHBOURHOOD',
};

export function levelToProto(level: AreaLevel): geoV1.AreaLevel {
  return toLevel[level];
}

/** undefined for levels the domain does not index (unspecified, country). */
export function levelFromProto(level: geoV1.AreaLevel): AreaLevel | undefined {
  return (Object.keys(toLevel) as AreaLevel[]).find((key) => toLevel[key] === level);
}

function ringToProto(ring: Ring): commonV1.LinearRing {
  return { points: ring.map(([lng, lat]) => ({ lng, lat })) };
}

export function multiPolygonToProto(geometry: MultiPolygon): commonV1.MultiPolygon {
  return {
    polygons: geometry.map(({ exterior, holes }) => ({ exterior: ringToProto(exterior), holes: holes.map(ringToProto) })),
  };
}

export function polygonFromProto(polygon: commonV1.Polygon): Polygon {
  const ring = (r: commonV1.LinearRing | null | undefined): Ring => (r?.points ?? []).map((p) => [p.lng, p.lat] as const);
  return { exterior: ring(polygon.exterior), holes: polygon.holes.map(ring) };
}

export function cityToProto(city: CityView): geoV1.City {
  return {
    id: city.id,
    name: city.name,
    countryCode: city.country,
    ...(city.licensePlateCode !== null ? { licensePlateCode: city.licensePlateCode } : {}),
    geometry: multiPolygonToProto(city.geometry),
  };
}

export function districtToProto(district: DistrictView): geoV1.District {
  return { id: district.id, name: district.name, geometry: multiPolygonToProto(district.geometry), city: cityToProto(district.city) };
}

export function neighbourhoodToProto(n: NeighbourhoodView): geoV1.Neighbourhood {
  return { id: n.id, name: n.name, geometry: multiPolygonToProto(n.geometry), district: districtToProto(n.district) };
}

export function resolvedToProto(area: ResolvedArea | undefined): geoV1.ResolvedArea | null {
  if (!area) return null;
  return { id: area.id, name: area.name, nearest: area.distanceM > 0, distanceM: area.distanceM };
}

export function areaRefToProto(ref: AreaRef): geoV1.AreaRef {
  return { level: levelToProto(ref.level), id: ref.id };
}
