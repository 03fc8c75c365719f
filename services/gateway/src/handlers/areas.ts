import type { GrpcClient } from '@stormhook/grpc';
import { geoV1 } from '@stormhook/proto';
import { validatedInput } from '../http/request-state.js';
import type { Handlers } from '../routes/mount.js';
import { cityJson, districtJson, neighbourhoodJson } from './area-shapes.js';

export type GeoClient = GrpcClient<typeof geoV1.GeoService>;

/** The country the geometry-alarm city list serves (interface.md 4.9: "the country of the service"). */
const HOME_COUNTRY = 'TUR';

export interface AreaHandlerDeps {
  geo: GeoClient;
  /** The attribution the boundary data's licence requires, sent on every boundary answer. */
  attribution: string;
}

/** interface.md 4.9 - 4.12 over the geo service. */
export function areaHandlers(deps: AreaHandlerDeps): Handlers {
  const tolerance = (query: Record<string, unknown>) => Number(query['simplifyTolerance'] ?? 0);
  return {
    listGeometryAlarmCities: async (req, res) => {
      const { query } = validatedInput(req);
      const { cities } = await deps.geo.listCities({ countryCode: HOME_COUNTRY, simplifyToleranceM: tolerance(query) });
      res.set('X-Data-Attribution', deps.attribution).json(cities.map((c) => cityJson(c, 'ring')));
    },
    getNeighborhood: async (req, res) => {
      const { params, query } = validatedInput(req);
      const n = await deps.geo.getNeighbourhood({ id: Number(params['neighborhoodId']), simplifyToleranceM: tolerance(query) });
      res.set('X-Data-Attribution', deps.attribution).json(neighbourhoodJson(n, 'ring'));
    },
    getDistrict: async (req, res) => {
      const { params, query } = validatedInput(req);
      const d = await deps.geo.getDistrict({ id: Number(params['districtId']), simplifyToleranceM: tolerance(query) });
      res.set('X-Data-Attribution', deps.attribution).json(districtJson(d, 'multi'));
    },
    listCountryCities: async (req, res) => {
      const { params, query } = validatedInput(req);
      const { cities } = await deps.geo.listCities({ countryCode: String(params['countryCode']), simplifyToleranceM: tolerance(query) });
      res.set('X-Data-Attribution', deps.attribution).json(cities.map((c) => cityJson(c, 'multi')));
    },
  };
}
