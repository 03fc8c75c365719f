import {
  CurrentForecastRequest,
  CurrentForecastResponse,
  DailyForecastRequest,
  GeometryRequest,
  GeometryResponse,
  HourlyForecastRequest,
  PrecipitationPageRequest,
  PrecipitationPageResponse,
  PrecipitationsWithinRequest,
  Thunderstorm,
  ThunderstormGetRequest,
  ThunderstormPageRequest,
  ThunderstormPageResponse,
} from '../schemas/weather.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { WEATHER_ERRORS } from './error-sets.js';

const subscriber = 'any authenticated caller whose subscription covers the endpoint';

const FORECAST_DESCRIPTION =
  'Answered from the nearest grid cell of the latest forecast run covering the point (404 when no cell lies within the configured ' +
  'distance). Times are local to the IANA timezone of the point. Metric names of the schema that this operation does not answer, ' +
  'and metrics the model does not provide, are listed in `warnings` instead of failing the request.';
const FORECAST_ERRORS = [...WEATHER_ERRORS, 404, 503] as const;

export const weatherRoutes: readonly RouteSpec[] = [
  {
    operationId: 'getGeometryByEventIds',
    method: 'post',
    path: '/v1/precipitations/geometry',
    summary: 'Precipitation geometry of events, cropped to a circle',
    description:
      'Returns a base64 protobuf FeatureCollection with one MultiPolygon per event, cropped to the geodesic circle of center and radius. ' +
      'POWER_USER and above may omit both and receive the full geometry; anyone else gets a 400. ' +
      'With `Accept: application/x-protobuf` the answer is the raw protobuf bytes (Content-Type application/x-protobuf) instead of the JSON string. ' +
      'Event ids that are unknown, purged or outside the subscription area are skipped and listed, comma-separated and percent-encoded, ' +
      'in the X-Missing-Event-Ids header. Schema: proto/stormhook/query/v1/precipitation_geometry.proto.',
    tag: 'precipitations',
    roles: `${subscriber}; POWER_USER or above may skip cropping`,
    authenticated: true,
    request: { body: GeometryRequest },
    response: { status: 200, description: 'base64-encoded protobuf FeatureCollection', schema: GeometryResponse },
    errors: WEATHER_ERRORS,
  },
  {
    operationId: 'getPrecipitationPage',
    method: 'post',
    path: '/v1/precipitations/page',
    summary: 'Precipitation events inside the subscription area and time window',
    description:
      'Events whose radar time lies in [endTimeEpoch - backwardInterval, endTimeEpoch] (both ends included) and whose area touches ' +
      'the subscription geography, at or above intensityThreshold, newest first.',
    tag: 'precipitations',
    roles: subscriber,
    authenticated: true,
    request: { body: PrecipitationPageRequest },
    response: { status: 200, description: 'a page of precipitation records', schema: PrecipitationPageResponse },
    errors: WEATHER_ERRORS,
  },
  {
    operationId: 'getThunderstormPage',
    method: 'post',
    path: '/v1/thunderstorms/page',
    summary: 'Thunderstorm events inside the subscription area and time window',
    description:
      'Storms whose lifetime [eventStartUtcEpoch, eventEndUtcEpoch] overlaps [endTimeEpoch - backwardInterval, endTimeEpoch] and whose ' +
      'cell or threat polygon touches the subscription geography, latest end first. Speeds are km/h.',
    tag: 'thunderstorms',
    roles: subscriber,
    authenticated: true,
    request: { body: ThunderstormPageRequest },
    response: { status: 200, description: 'a page of thunderstorm records', schema: ThunderstormPageResponse },
    errors: WEATHER_ERRORS,
  },
  {
    operationId: 'getCurrentForecast',
    method: 'post',
    path: '/v1/forecasts/current',
    summary: 'Current forecast of selected metrics at a point',
    description: FORECAST_DESCRIPTION,
    tag: 'forecasts',
    roles: subscriber,
    authenticated: true,
    request: { body: CurrentForecastRequest },
    response: { status: 200, description: 'metric forecasts and warnings', schema: CurrentForecastResponse },
    errors: FORECAST_ERRORS,
  },
  {
    operationId: 'getPrecipitationsWithin',
    method: 'post',
    path: '/v1/precipitations/within',
    summary: 'Precipitation events touching a circle of at most 50 km',
    description:
      'As /v1/precipitations/page, limited to events whose area intersects the geodesic circle (center, radius in meters), with ' + 'windows of up to 30 days.',
    tag: 'precipitations',
    roles: subscriber,
    authenticated: true,
    request: { body: PrecipitationsWithinRequest },
    response: { status: 200, description: 'a page of precipitation records', schema: PrecipitationPageResponse },
    errors: WEATHER_ERRORS,
  },
  {
    operationId: 'getThunderstormByEventId',
    method: 'post',
    path: '/v1/thunderstorms/get',
    summary: 'One thunderstorm event by its id',
    description: 'The latest revision of the storm; 404 when it is unknown, purged or outside the subscription area.',
    tag: 'thunderstorms',
    roles: subscriber,
    authenticated: true,
    request: { body: ThunderstormGetRequest },
    response: { status: 200, description: 'the thunderstorm record', schema: Thunderstorm },
    errors: [...WEATHER_ERRORS, 404, 503],
  },
  {
    operationId: 'getHourlyForecast',
    method: 'post',
    path: '/v1/forecasts/hourly',
    summary: 'Hourly forecast of selected metrics at a point',
    description: `${FORECAST_DESCRIPTION} GLOBAL_TILTED_RADIATION_GTI is computed for the panel given by solarPanelTiltForRadiation and solarPanelAzimuthForRadiation.`,
    tag: 'forecasts',
    roles: subscriber,
    authenticated: true,
    request: { body: HourlyForecastRequest },
    response: { status: 200, description: 'hourly metric forecasts and warnings', schema: CurrentForecastResponse },
    errors: FORECAST_ERRORS,
  },
  {
    operationId: 'getDailyForecast',
    method: 'post',
    path: '/v1/forecasts/daily',
    summary: 'Daily forecast of selected metrics at a point',
    description:
      `${FORECAST_DESCRIPTION} One value per local calendar day: _AVG/_MIN/_MAX of the hourly values, _SUM and the daily totals of the ` +
      'hours ending in the day.',
    tag: 'forecasts',
    roles: subscriber,
    authenticated: true,
    request: { body: DailyForecastRequest },
    response: { status: 200, description: 'daily metric forecasts and warnings', schema: CurrentForecastResponse },
    errors: FORECAST_ERRORS,
  },
];
