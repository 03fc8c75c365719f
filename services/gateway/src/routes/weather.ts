import {
  CurrentForecastRequest,
  CurrentForecastResponse,
  GeometryRequest,
  GeometryResponse,
  PrecipitationPageRequest,
  PrecipitationPageResponse,
  ThunderstormPageRequest,
  ThunderstormPageResponse,
} from '../schemas/weather.js';
import { WEATHER_ERRORS, type RouteSpec } from './route-spec.js';

const subscriber = 'any authenticated caller whose subscription covers the endpoint';

export const weatherRoutes: readonly RouteSpec[] = [
  {
    operationId: 'getGeometryByEventIds',
    method: 'post',
    path: '/v1/precipitations/geometry',
    summary: 'Precipitation geometry of events, cropped to a circle',
    description:
      'Returns a base64 protobuf FeatureCollection with one MultiPolygon per event, cropped to center and radius. ' +
      'POWER_USER and above may omit both and receive the full geometry.',
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
    tag: 'forecasts',
    roles: subscriber,
    authenticated: true,
    request: { body: CurrentForecastRequest },
    response: { status: 200, description: 'metric forecasts and warnings', schema: CurrentForecastResponse },
    errors: WEATHER_ERRORS,
  },
];
