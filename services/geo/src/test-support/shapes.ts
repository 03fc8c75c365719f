import type { Area, AreaLevel, CountryCode } from '../domain/area.js';
import type { MultiPolygon, Ring } from '../domain/geometry/types.js';

/** A closed counter-clockwise axis-aligned rectangle. */
export function rect(minLng: number, minLat: number, maxLng: number, maxLat: number): Ring {
  return [
    [minLng, minLat],
    [maxLng, minLat],
    [maxLng, maxLat],
    [minLng, maxLat],
    [minLng, minLat],
  ];
}

export function square(minLng: number, minLat: number, size: number): Ring {
  return rect(minLng, minLat, minLng + size, minLat + size);
}

export function area(
  level: AreaLevel,
  id: number,
  geometry: MultiPolygon,
  parentId: number | null = null,
  country: CountryCode = 'TUR',
): Area {
  return {
    country,
    level,
    id,
    name: `${level} ${id}`,
    parentId,
    licensePlateCode: level === 'city' && country === 'TUR' ? id : null,
    geometry,
  };
}
