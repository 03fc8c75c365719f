import type { Request } from 'express';
import { atLeast, isRole } from '@stormhook/access';
import { ApiError } from '@stormhook/errors';
import type { GrpcClient } from '@stormhook/grpc';
import type { queryV1 } from '@stormhook/proto';
import { principalOf } from '../http/auth-state.js';
import { geographyOf } from '../http/caller-geography.js';
import { validatedBody } from '../http/validated-input.js';
import type { Handlers } from '../routes/mount.js';
import type { Validated } from '../schemas/json-schema.js';
import {
  CurrentForecastRequest,
  DailyForecastRequest,
  GeometryRequest,
  HourlyForecastRequest,
  PrecipitationPageRequest,
  PrecipitationsWithinRequest,
  ThunderstormGetRequest,
  ThunderstormPageRequest,
} from '../schemas/weather.js';
import { forecastJson, precipitationPageJson, thunderstormJson, thunderstormPageJson } from '../json/weather-json.js';

export type QueryClient = GrpcClient<typeof queryV1.QueryService>;

/** Names the requested event ids the geometry answer leaves out (unknown, purged or not visible). */
export const MISSING_EVENT_IDS_HEADER = 'X-Missing-Event-Ids';
export const PROTOBUF = 'application/x-protobuf';

const page = (b: { pageNumber: number; pageSize: number }) => ({ pageNumber: b.pageNumber, pageSize: b.pageSize });
/** The schema admits only the public names, each the enum's value without its prefix. */
type IntensityThreshold = queryV1.ListPrecipitationsRequest['intensityThreshold'];
const intensity = (threshold: string | undefined): IntensityThreshold =>
  threshold !== undefined ? (`PRECIPITATION_INTENSITY_${threshold}` as IntensityThreshold) : 'PRECIPITATION_INTENSITY_UNSPECIFIED';

/** The hourly and daily forecast bodies; the current forecast's are the same without the (optional) solar panel. */
type ForecastBody = Validated<typeof HourlyForecastRequest>;

function forecastRequest(req: Request, kind: queryV1.ForecastKind, b: ForecastBody): queryV1.GetForecastRequest {
  return {
    geography: geographyOf(req),
    kind,
    location: { lng: b.location.lng, lat: b.location.lat },
    metrics: b.metrics,
    ...(b.forecastDays !== undefined ? { forecastDays: b.forecastDays } : {}),
    ...(b.startTime !== undefined ? { startEpochMs: b.startTime } : {}),
    ...(b.solarPanelTiltForRadiation !== undefined ? { panelTiltDeg: b.solarPanelTiltForRadiation } : {}),
    ...(b.solarPanelAzimuthForRadiation !== undefined ? { panelAzimuthDeg: b.solarPanelAzimuthForRadiation } : {}),
  };
}

/** interface.md 4.1 - 4.4 and the incumbent's within / get / hourly / daily, over the query service. */
export function weatherHandlers(deps: { query: QueryClient }): Handlers {
  const { query } = deps;
  return {
    getGeometryByEventIds: async (req, res) => {
      const b = validatedBody(req, GeometryRequest);
      const { center, radius } = b;
      // The schema makes center and radius come together; leaving both out is a privilege (4.1 rule 2).
      if ((center === undefined || radius === undefined) && !isAtLeastPowerUser(principalOf(req).role)) {
        throw new ApiError(400, 'center and radius are required: only POWER_USER and above may ask for uncropped geometry', [
          'center is required',
          'radius is required',
        ]);
      }
      const answer = await query.getPrecipitationGeometry({
        geography: geographyOf(req),
        eventIds: b.eventIds,
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
      const b = validatedBody(req, PrecipitationPageRequest);
      const answer = await query.listPrecipitations({
        geography: geographyOf(req),
        endEpochMs: b.endTimeEpoch,
        backwardIntervalS: b.backwardInterval,
        intensityThreshold: intensity(b.intensityThreshold),
        page: page(b),
      });
      res.json(precipitationPageJson(answer));
    },

    getPrecipitationsWithin: async (req, res) => {
      const b = validatedBody(req, PrecipitationsWithinRequest);
      const answer = await query.listPrecipitations({
        geography: geographyOf(req),
        endEpochMs: b.endTimeEpoch,
        backwardIntervalS: b.backwardInterval,
        intensityThreshold: intensity(b.intensityThreshold),
        page: page(b),
        within: { center: { lng: b.center.lng, lat: b.center.lat }, radiusM: b.radius },
      });
      res.json(precipitationPageJson(answer));
    },

    getThunderstormPage: async (req, res) => {
      const b = validatedBody(req, ThunderstormPageRequest);
      const answer = await query.listThunderstorms({
        geography: geographyOf(req),
        endEpochMs: b.endTimeEpoch,
        backwardIntervalS: b.backwardInterval,
        page: page(b),
      });
      res.json(thunderstormPageJson(answer));
    },

    getThunderstormByEventId: async (req, res) => {
      const answer = await query.getThunderstorm({ geography: geographyOf(req), eventId: validatedBody(req, ThunderstormGetRequest).eventId });
      if (!answer.thunderstorm) throw new ApiError(404, 'No thunderstorm event found');
      res.json(thunderstormJson(answer.thunderstorm));
    },

    getCurrentForecast: async (req, res) => {
      res.json(forecastJson(await query.getForecast(forecastRequest(req, 'FORECAST_KIND_CURRENT', validatedBody(req, CurrentForecastRequest)))));
    },
    getHourlyForecast: async (req, res) => {
      res.json(forecastJson(await query.getForecast(forecastRequest(req, 'FORECAST_KIND_HOURLY', validatedBody(req, HourlyForecastRequest)))));
    },
    getDailyForecast: async (req, res) => {
      res.json(forecastJson(await query.getForecast(forecastRequest(req, 'FORECAST_KIND_DAILY', validatedBody(req, DailyForecastRequest)))));
    },
  };
}

/** The role rank of the access rules; an unknown role (a corrupt principal) never passes. */
function isAtLeastPowerUser(role: string): boolean {
  return isRole(role) && atLeast(role, 'POWER_USER');
}
