import {
  GeoPoint,
  INTENSITIES,
  Intensity,
  Polygon,
  backwardInterval,
  epochMillis,
  forecastDays,
  nonEmptyString,
  pageNumber,
  pageSize,
} from './common.js';
import { arrayOf, closedObject, enumOf, named, openObject } from './json-schema.js';

/** interface.md 4.1. center and radius come together or not at all (only POWER_USER and above may omit both). */
export const GeometryRequest = named(
  'PrecipitationGeometryRequest',
  closedObject(
    {
      eventIds: arrayOf(nonEmptyString(128), { minItems: 0, maxItems: 10 }),
      center: GeoPoint,
      radius: { type: 'number', format: 'double', exclusiveMinimum: 0, maximum: 200000, description: 'meters' },
    },
    ['eventIds'],
    { dependentRequired: { center: ['radius'], radius: ['center'] } },
  ),
);

export const GeometryResponse = named('PrecipitationGeometryPayload', {
  type: 'string',
  format: 'byte',
  description: 'base64 of a protobuf PrecipitationFeatureCollection: one MultiPolygon feature per requested event',
});

/** interface.md 4.2. */
export const PrecipitationPageRequest = named(
  'PrecipitationPageRequest',
  closedObject(
    { backwardInterval, endTimeEpoch: epochMillis, intensityThreshold: Intensity, pageNumber, pageSize },
    ['backwardInterval', 'endTimeEpoch', 'pageNumber', 'pageSize'],
  ),
);

const pageMeta = {
  totalRecords: { type: 'integer', format: 'int64', minimum: 0 },
  pageNumber: { type: 'integer', format: 'int32' },
  pageSize: { type: 'integer', format: 'int32' },
};
const pageRequired = ['totalRecords', 'pageNumber', 'pageSize'] as const;

export const Precipitation = named(
  'Precipitation',
  openObject(
    {
      eventId: { type: 'string' },
      radarTimeStamp: epochMillis,
      forecast: { type: 'boolean' },
      intensity: enumOf(INTENSITIES),
    },
    ['eventId', 'radarTimeStamp', 'forecast', 'intensity'],
  ),
);

export const PrecipitationPageResponse = named(
  'PrecipitationPage',
  openObject(
    { precipitations: arrayOf(Precipitation), queryTimestamp: epochMillis, ...pageMeta },
    ['precipitations', 'queryTimestamp', ...pageRequired],
  ),
);

/** interface.md 4.3: all four fields required. */
export const ThunderstormPageRequest = named(
  'ThunderstormPageRequest',
  closedObject(
    { backwardInterval, endTimeEpoch: epochMillis, pageNumber, pageSize },
    ['backwardInterval', 'endTimeEpoch', 'pageNumber', 'pageSize'],
  ),
);

export const Thunderstorm = named(
  'Thunderstorm',
  openObject(
    {
      eventId: { type: 'string' },
      insertedAtEpoch: epochMillis,
      eventStartUtcEpoch: epochMillis,
      eventEndUtcEpoch: epochMillis,
      severity: { type: 'string' },
      threshold: { type: 'number' },
      meta: openObject({
        country: { type: 'string' },
        state: { type: 'string' },
        city: { type: 'string' },
        speedUnit: { type: 'string' },
        speed: { type: 'number' },
      }),
      cell: openObject({
        area: { type: 'number' },
        speed: { type: 'number' },
        direction: { type: 'number', description: 'degrees, 0 = North, clockwise' },
        flashRates: openObject({
          inCloud: { type: 'number' },
          cloudToGround: { type: 'number' },
          total: { type: 'number' },
        }),
        centroid: GeoPoint,
        polygon: Polygon,
      }),
      threatPolygon: Polygon,
    },
    ['eventId'],
  ),
);

export const ThunderstormPageResponse = named(
  'ThunderstormPage',
  openObject({ thunderstorms: arrayOf(Thunderstorm), ...pageMeta }, ['thunderstorms', ...pageRequired]),
);

/** Every metric name the forecast request schema knows (interface.md 2.11). */
export const FORECAST_METRICS = [
  'WEATHER_ICON', 'TEMPERATURE', 'TEMPERATURE_AVG', 'TEMPERATURE_MIN', 'TEMPERATURE_MAX',
  'APPARENT_TEMPERATURE', 'APPARENT_TEMPERATURE_AVG', 'APPARENT_TEMPERATURE_MIN', 'APPARENT_TEMPERATURE_MAX',
  'HUMIDITY', 'HUMIDITY_AVG', 'HUMIDITY_MIN', 'HUMIDITY_MAX',
  'CLOUD_COVER', 'CLOUD_COVER_AVG', 'CLOUD_COVER_MIN', 'CLOUD_COVER_MAX',
  'WIND_SPEED', 'WIND_SPEED_AVG', 'WIND_SPEED_MIN', 'WIND_SPEED_MAX',
  'WIND_GUSTS', 'WIND_GUSTS_AVG', 'WIND_GUSTS_MIN', 'WIND_GUSTS_MAX', 'WIND_DIRECTION',
  'SNOWFALL', 'PRECIPITATION',
  'PRECIPITATION_PROBABILITY', 'PRECIPITATION_PROBABILITY_AVG', 'PRECIPITATION_PROBABILITY_MIN', 'PRECIPITATION_PROBABILITY_MAX',
  'REF_EVAPORATION_TRANSPIRATION_ET0', 'REF_EVAPORATION_TRANSPIRATION_ET0_SUM',
  'DEW_POINT', 'DEW_POINT_AVG', 'DEW_POINT_MIN', 'DEW_POINT_MAX',
  'SOIL_TEMPERATURE', 'SOIL_MOISTURE',
  'GLOBAL_TILTED_RADIATION_GTI', 'DIRECT_NORMAL_IRRADIANCE_DNI', 'SHORTWAVE_SOLAR_RADIATION_GHI', 'SHORTWAVE_RADIATION_SUM',
  'VISIBILITY', 'VISIBILITY_AVG', 'VISIBILITY_MIN', 'VISIBILITY_MAX',
] as const;

/** The metrics the current-forecast operation answers; the others of FORECAST_METRICS become warnings, not 400s. */
export const CURRENT_FORECAST_METRICS = [
  'WEATHER_ICON', 'TEMPERATURE', 'APPARENT_TEMPERATURE', 'HUMIDITY', 'CLOUD_COVER',
  'WIND_SPEED', 'WIND_GUSTS', 'WIND_DIRECTION', 'SNOWFALL', 'PRECIPITATION',
] as const;

/**
 * interface.md 4.4. The enum is the whole 2.11 list on purpose: 2.11 says a metric known to the schema
 * but not valid for this operation yields a warning in the response rather than a failure, so only
 * names outside the list are a 400.
 */
export const CurrentForecastRequest = named(
  'CurrentForecastRequest',
  closedObject(
    {
      location: GeoPoint,
      metrics: arrayOf(enumOf(FORECAST_METRICS), {
        minItems: 1,
        maxItems: FORECAST_METRICS.length,
        uniqueItems: true,
        description: `answered for this operation: ${CURRENT_FORECAST_METRICS.join(', ')}; other known metrics produce a warning`,
      }),
      forecastDays,
      startTime: { ...epochMillis, description: 'epoch milliseconds; start of the forecast horizon' },
    },
    ['location', 'metrics'],
  ),
);

/** Field names follow the incumbent's forecast responses (the contract lists the content but not the names). */
export const CurrentForecastResponse = named(
  'CurrentForecast',
  openObject({
    location: openObject({ lng: { type: 'number' }, lat: { type: 'number' } }),
    timezone: { type: 'string', description: 'IANA timezone of the timestamps' },
    elevation: { type: 'number', description: 'meters' },
    weatherIconUrlBase: { type: 'string' },
    metricForecasts: arrayOf(
      openObject({
        metric: { type: 'string' },
        unit: { type: 'string' },
        forecasts: arrayOf(
          openObject({
            time: { type: 'string' },
            isDay: { type: 'boolean' },
            value: { type: ['number', 'null'] },
            icon: { type: 'string' },
          }),
        ),
      }),
    ),
    warnings: arrayOf({ type: 'string' }),
  }),
);
