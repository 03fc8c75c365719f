import { COUNTRY_CODES } from '@stormhook/access';
import { GeoPoint, Geometry, Polygon } from './common.js';
import { arrayOf, closedObject, enumOf, named, openObject, pathParams, type JsonSchema } from './json-schema.js';

const id: JsonSchema = { type: 'integer', format: 'int64' };
const name: JsonSchema = { type: 'string' };
const licensePlateCode: JsonSchema = { type: ['integer', 'null'], description: 'null for cities outside TUR' };

/** interface.md 2.6, ring form (geometry-alarm endpoints). */
export const CityWithPolygon = named('CityWithPolygon', openObject({ id, name, licensePlateCode, polygon: Polygon }, ['id', 'name']));
export const DistrictWithPolygon = named('DistrictWithPolygon', openObject({ id, name, polygon: Polygon, city: CityWithPolygon }, ['id', 'name']));
export const NeighborhoodWithPolygon = named('Neighborhood', openObject({ id, name, polygon: Polygon, district: DistrictWithPolygon }, ['id', 'name']));

/** interface.md 2.6, multi form (forecast-alarm endpoints). */
export const CityWithGeometry = named('CityWithGeometry', openObject({ id, name, licensePlateCode, geometry: Geometry }, ['id', 'name']));
export const DistrictWithGeometry = named('DistrictWithGeometry', openObject({ id, name, geometry: Geometry, city: CityWithGeometry }, ['id', 'name']));

export const CitiesWithPolygon = arrayOf(CityWithPolygon);
export const CitiesWithGeometry = arrayOf(CityWithGeometry);

const numericId = { type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
export const NeighborhoodIdParams = pathParams({ neighborhoodId: numericId });
export const DistrictIdParams = pathParams({ districtId: numericId });
// The countries the access rules know (one home with subscriptions' geography).
export { COUNTRY_CODES };
export const CountryCodeParams = pathParams({
  countryCode: enumOf(COUNTRY_CODES, { description: 'ISO 3166 alpha-3 code' }),
});

/** Optional lighter polygons (issue: simplification for responses); 0 or absent returns the stored geometry. */
export const SimplifyQuery = {
  type: 'object',
  properties: {
    simplifyTolerance: {
      type: 'number',
      minimum: 0,
      maximum: 50000,
      description: 'Douglas-Peucker tolerance in metres (0 to 50000); absent or 0 returns the stored geometry',
    },
  },
  additionalProperties: false,
} as const;

/**
 * Which city, district and neighbourhood hold a point: what a map needs to turn a click into a geometry
 * alarm's boundary (the registration names areas by id, and no list of districts is served).
 */
export const LocateAreaRequest = named('LocateAreaRequest', closedObject({ point: GeoPoint }, ['point']));
const LocatedArea: JsonSchema = {
  oneOf: [{ type: 'null' }, openObject({ id, name }, ['id', 'name'])],
  description: 'null when the point lies in no area of this level (the neighbourhood level covers İstanbul only)',
};
export const LocateAreaResponse = named(
  'LocatedAreas',
  openObject(
    {
      countryCode: { type: ['string', 'null'], description: 'ISO 3166 alpha-3 code; null outside every supported country' },
      city: LocatedArea,
      district: LocatedArea,
      neighborhood: LocatedArea,
    },
    ['countryCode', 'city', 'district', 'neighborhood'],
  ),
);
