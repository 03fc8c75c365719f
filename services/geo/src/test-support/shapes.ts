import type { Area, AreaLevel, CountryCode } from '../domain/area.js';
import { fromCoordinates, type MultiPolygonCoordinates } from '../domain/geometry/geojson-coordinates.js';

/** Test rings: a rectangle (minLng, minLat, maxLng, maxLat) and a square (minLng, minLat, size), counterclockwise. */
export { rectangleRing as rect, squareRing as square } from '@stormhook/geometry/testing';

/** An area whose geometry is given in GeoJSON form (per polygon its rings, exterior first), as the tests write it. */
export function area(level: AreaLevel, id: number, coordinates: MultiPolygonCoordinates, parentId: number | null = null, country: CountryCode = 'TUR'): Area {
  return {
    country,
    level,
    id,
    name: `${level} ${id}`,
    parentId,
    licensePlateCode: level === 'city' && country === 'TUR' ? id : null,
    geometry: fromCoordinates(coordinates),
  };
}
