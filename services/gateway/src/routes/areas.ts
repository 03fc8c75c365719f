import {
  CitiesWithGeometry,
  CitiesWithPolygon,
  CountryCodeParams,
  DistrictIdParams,
  DistrictWithGeometry,
  LocateAreaRequest,
  LocateAreaResponse,
  NeighborhoodIdParams,
  NeighborhoodWithPolygon,
  SimplifyQuery,
} from '../schemas/areas.js';
import type { ErrorStatus, RouteSpec } from '../contract/route-spec.js';
import { RESOURCE_ERRORS } from './error-sets.js';

/** Boundary data is a metered service (GEO) of the subscription: 402 and 429 apply too. */
const AREA_ERRORS: readonly ErrorStatus[] = [...RESOURCE_ERRORS, 402, 429];

const anyUser = 'any authenticated caller whose subscription covers boundary data (GEO)';

/** interface.md 4.9 - 4.12: administrative boundaries, served for building alarm registrations. */
export const areaRoutes: readonly RouteSpec[] = [
  {
    operationId: 'listGeometryAlarmCities',
    method: 'get',
    path: '/v1/alarms/geometries/cities',
    summary: 'Cities of the country, with polygons',
    tag: 'administrative areas',
    roles: anyUser,
    authenticated: true,
    request: { query: SimplifyQuery },
    response: { status: 200, description: "the country's cities that the subscription's geography covers (ring form)", schema: CitiesWithPolygon },
    errors: AREA_ERRORS,
  },
  {
    operationId: 'getNeighborhood',
    method: 'get',
    path: '/v1/alarms/geometries/neighborhood/{neighborhoodId}',
    summary: 'A neighbourhood with its district and city',
    tag: 'administrative areas',
    roles: anyUser,
    authenticated: true,
    request: { params: NeighborhoodIdParams, query: SimplifyQuery },
    response: { status: 200, description: 'the neighbourhood (ring form)', schema: NeighborhoodWithPolygon },
    errors: AREA_ERRORS,
  },
  {
    operationId: 'locateArea',
    method: 'post',
    path: '/v1/alarms/geometries/locate',
    summary: 'The city, district and neighbourhood at a point',
    description:
      'Resolves a point to the ids and names of the areas holding it, as a geometry alarm boundary names them: a map turns a ' +
      "click into cityId, districtId and neighborhoodId with it. The point must lie within the subscription's geography.",
    tag: 'administrative areas',
    roles: anyUser,
    authenticated: true,
    request: { body: LocateAreaRequest },
    response: { status: 200, description: 'the areas at the point, null for a level with none there', schema: LocateAreaResponse },
    errors: AREA_ERRORS,
  },
  {
    operationId: 'getDistrict',
    method: 'get',
    path: '/v1/alarms/forecasts/district/{districtId}',
    summary: 'A district with its city',
    tag: 'administrative areas',
    roles: anyUser,
    authenticated: true,
    request: { params: DistrictIdParams, query: SimplifyQuery },
    response: { status: 200, description: 'the district (multi form)', schema: DistrictWithGeometry },
    errors: AREA_ERRORS,
  },
  {
    operationId: 'listCountryCities',
    method: 'get',
    path: '/v1/alarms/forecasts/{countryCode}/cities',
    summary: 'Cities of a country (TUR or CTR)',
    tag: 'administrative areas',
    roles: anyUser,
    authenticated: true,
    request: { params: CountryCodeParams, query: SimplifyQuery },
    response: {
      status: 200,
      description:
        "the country's cities that the subscription's geography covers, none for a country outside it (multi form); licensePlateCode is null for CTR",
      schema: CitiesWithGeometry,
    },
    errors: AREA_ERRORS,
  },
];
