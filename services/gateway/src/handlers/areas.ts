import type { Request } from 'express';
import type { GrpcClient } from '@stormhook/grpc';
import { geoV1 } from '@stormhook/proto';
import { coversCity } from '../http/caller-geography.js';
import { validatedBody, validatedParams, validatedQuery } from '../http/validated-input.js';
import type { Handlers } from '../routes/mount.js';
import { CountryCodeParams, DistrictIdParams, LocateAreaRequest, NeighborhoodIdParams, SimplifyQuery } from '../schemas/areas.js';
import { cityJson, districtJson, neighbourhoodJson } from '../json/area-shapes.js';

export type GeoClient = GrpcClient<typeof geoV1.GeoService>;

/** The country the geometry-alarm city list serves (interface.md 4.9: "the country of the service"). */
const HOME_COUNTRY = 'TUR';

export interface AreaHandlerDeps {
  geo: GeoClient;
  /** The attribution the boundary data's licence requires, sent on every boundary answer. */
  attribution: string;
}

/**
 * interface.md 4.9 - 4.12 over the geo service.
 *
 * Areas named by id are checked by the access guards (a district outside the plan is the location
 * 403). The city lists name no single place, so they answer the cities the plan covers: an Ankara-only
 * customer gets Ankara, a TUR customer every province, and a country outside the plan an empty list.
 * Filtering rather than refusing is how the contract treats every list (4.2: only records inside the
 * subscription's boundaries), and the 403's message names one queried [lat, lng] that a list lacks.
 * The filter reads the plan already in memory and the geo answer: no extra round trip.
 */
export function areaHandlers(deps: AreaHandlerDeps): Handlers {
  // Every area operation takes the same optional tolerance; absent means the stored geometry.
  const tolerance = (req: Request) => validatedQuery(req, SimplifyQuery).simplifyTolerance ?? 0;
  return {
    listGeometryAlarmCities: async (req, res) => {
      const { cities } = await deps.geo.listCities({ countryCode: HOME_COUNTRY, simplifyToleranceM: tolerance(req) });
      res.set('X-Data-Attribution', deps.attribution).json(cities.filter(coversCity(req)).map((c) => cityJson(c, 'ring')));
    },
    getNeighborhood: async (req, res) => {
      const { neighborhoodId } = validatedParams(req, NeighborhoodIdParams);
      const n = await deps.geo.getNeighbourhood({ id: neighborhoodId, simplifyToleranceM: tolerance(req) });
      res.set('X-Data-Attribution', deps.attribution).json(neighbourhoodJson(n, 'ring'));
    },
    locateArea: async (req, res) => {
      const { point } = validatedBody(req, LocateAreaRequest);
      const found = await deps.geo.resolvePoint({ point: { lat: point.lat, lng: point.lng } });
      // Only areas that hold the point: geo's nearest-area fallback (a point just off the coast) would
      // turn a click on the sea into an alarm for a district the user never pointed at.
      const area = (a: geoV1.ResolvedArea | null | undefined) => (a && a.id > 0 && !a.nearest ? { id: a.id, name: a.name } : null);
      res.set('X-Data-Attribution', deps.attribution).json({
        countryCode: found.countryCode === '' ? null : found.countryCode,
        city: area(found.city),
        district: area(found.district),
        neighborhood: area(found.neighbourhood),
      });
    },
    getDistrict: async (req, res) => {
      const { districtId } = validatedParams(req, DistrictIdParams);
      const d = await deps.geo.getDistrict({ id: districtId, simplifyToleranceM: tolerance(req) });
      res.set('X-Data-Attribution', deps.attribution).json(districtJson(d, 'multi'));
    },
    listCountryCities: async (req, res) => {
      const { countryCode } = validatedParams(req, CountryCodeParams);
      const { cities } = await deps.geo.listCities({ countryCode, simplifyToleranceM: tolerance(req) });
      res.set('X-Data-Attribution', deps.attribution).json(cities.filter(coversCity(req)).map((c) => cityJson(c, 'multi')));
    },
  };
}
