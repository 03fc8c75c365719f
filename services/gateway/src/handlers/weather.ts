import type { Request } from 'express';
import { atLeast, isRole } from '@stormhook/access';
import { ApiError } from '@stormhook/errors';
import type { GrpcClient } from '@stormhook/grpc';
import type { queryV1 } from '@stormhook/proto';
import { accessOf, principalOf } from '../http/auth-state.js';
import { validatedInput } from '../http/request-state.js';
import type { Handlers } from '../routes/mount.js';
import { forecastJson, precipitationPageJson, thunderstormJson, thunderstormPageJson } from './weather-json.js';

export type QueryClient = GrpcClient<typeof queryV1.QueryService>;

/** Names the requested event ids the geometry answer leaves out (unknown, purged or not visible). */
export const MISSING_EVENT_IDS_HEADER = 'X-Missing-Event-Ids';
export const PROTOBUF = 'application/x-protobuf';

interface GeoPointBody {
  lng: number;
  lat: number;
}

/**
 * Where the caller may see data, as identity decided it for this request: ADMINs see everything;
 * everyone else the countries and regions of their subscription (none when it names none).
 */
export function geographyOf(req: Request): queryV1.Geography {
  if (principalOf(req).role === 'ADMIN') return { unrestricted: true, areas: [] };
  const boundaries = accessOf(req)?.geographicBoundaries ?? [];
  return { unrestricted: false, areas: boundaries.map((b) => ({ countryCode: b.country, region: b.region })) };
}

const body = (req: Request) => validatedInput(req).body as Record<string, unknown>;
const page = (b: Record<string, unknown>) => ({ pageNumber: Number(b['pageNumber']), pageSize: Number(b['pageSize']) });
const intensity = (b: Record<string, unknown>): queryV1.ListPrecipitationsRequest['intensityThreshold'] =>
  typeof b['intensityThreshold'] === 'string' ? (`PRECIPITATION_INTENSITY_${b['intensityThreshold']}` as queryV1.ListPrecipitationsRequest['intensityThreshold']) : 'PRECIPITATION_INTENSITY_UNSPECIFIED';

function forecastRequest(req: Request, kind: queryV1.ForecastKind): queryV1.GetForecastRequest {
  const b = body(req);
  const location = b['location'] as GeoPointBody;
  const optionalNumber = (name: string) => (typeof b[name] === 'number' ? (b[name] as number) : undefined);
  const forecastDays = optionalNumber('forecastDays');
  const startEpochMs = optionalNumber('startTime');
  const panelTiltDeg = optionalNumber('solarPanelTiltForRadiation');
  const panelAzimuthDeg = optionalNumber('solarPanelAzimuthForRadiation');
  return {
    geography: geographyOf(req),
    kind,
    location: { lng: location.lng, lat: location.lat },
    metrics: b['metrics'] as string[],
    ...(forecastDays !== undefined ? { forecastDays } : {}),
    ...(startEpochMs !== undefined ? { startEpochMs } : {}),
    ...(panelTiltDeg !== undefined ? { panelTiltDeg } : {}),
    ...(panelAzimuthDeg !== undefined ? { panelAzimuthDeg } : {}),
  };
}

/** interface.md 4.1 - 4.4 and the incumbent's within / get / hourly / daily, over the query service. */
export function weatherHandlers(deps: { query: QueryClient }): Handlers {
  const { query } = deps;
  return {
    getGeometryByEventIds: async (req, res) => {
      const b = body(req);
      const center = b['center'] as GeoPointBody | undefined;
      const radius = b['radius'] as number | undefined;
      // The schema makes center and radius come together; leaving both out is a privilege (4.1 rule 2).
      if ((center === undefined || radius === undefined) && !isAtLeastPowerUser(principalOf(req).role)) {
        throw new ApiError(400, 'center and radius are required: only POWER_USER and above may ask for uncropped geometry', [
          'center is required',
          'radius is required',
        ]);
      }
      const answer = await query.getPrecipitationGeometry({
        geography: geographyOf(req),
        eventIds: b['eventIds'] as string[],
        ...(center !== undefined && radius !== undefined ? { crop: { center: { lng: center.lng, lat: center.lat }, radiusM: radius } } : {}),
      });
      if (answer.missingEventIds.length > 0) res.set(MISSING_EVENT_IDS_HEADER, answer.missingEventIds.map(encodeURIComponent).join(','));
      res.vary('Accept');
      const bytes = Buffer.from(answer.featureCollection);
      if (req.accepts(['application/json', PROTOBUF]) === PROTOBUF) {
        res.status(200).type(PROTOBUF).send(bytes);
      } else {
        res.status(200).json(bytes.toString('base64'));
      }
    },

    getPrecipitationPage: async (req, res) => {
      const b = body(req);
      const answer = await query.listPrecipitations({
        geography: geographyOf(req),
        endEpochMs: Number(b['endTimeEpoch']),
        backwardIntervalS: Number(b['backwardInterval']),
        intensityThreshold: intensity(b),
        page: page(b),
      });
      res.json(precipitationPageJson(answer));
    },

    getPrecipitationsWithin: async (req, res) => {
      const b = body(req);
      const center = b['center'] as GeoPointBody;
      const answer = await query.listPrecipitations({
        geography: geographyOf(req),
        endEpochMs: Number(b['endTimeEpoch']),
        backwardIntervalS: Number(b['backwardInterval']),
        intensityThreshold: intensity(b),
        page: page(b),
        within: { center: { lng: center.lng, lat: center.lat }, radiusM: Number(b['radius']) },
      });
      res.json(precipitationPageJson(answer));
    },

    getThunderstormPage: async (req, res) => {
      const b = body(req);
      const answer = await query.listThunderstorms({
        geography: geographyOf(req),
        endEpochMs: Number(b['endTimeEpoch']),
        backwardIntervalS: Number(b['backwardInterval']),
        page: page(b),
      });
      res.json(thunderstormPageJson(answer));
    },

    getThunderstormByEventId: async (req, res) => {
      const answer = await query.getThunderstorm({ geography: geographyOf(req), eventId: String(body(req)['eventId']) });
      if (!answer.thunderstorm) throw new ApiError(404, 'No thunderstorm event found');
      res.json(thunderstormJson(answer.thunderstorm));
    },

    getCurrentForecast: async (req, res) => {
      res.json(forecastJson(await query.getForecast(forecastRequest(req, 'FORECAST_KIND_CURRENT'))));
    },
    getHourlyForecast: async (req, res) => {
      res.json(forecastJson(await query.getForecast(forecastRequest(req, 'FORECAST_KIND_HOURLY'))));
    },
    getDailyForecast: async (req, res) => {
      res.json(forecastJson(await query.getForecast(forecastRequest(req, 'FORECAST_KIND_DAILY'))));
    },
  };
}

/** The role rank of the access rules; an unknown role (a corrupt principal) never passes. */
function isAtLeastPowerUser(role: string): boolean {
  return isRole(role) && atLeast(role, 'POWER_USER');
}
