import { enumNames, queryV1 } from '@stormhook/proto';
import { API_LIMITS } from '@stormhook/limits';
import { GeoPoint, INTENSITIES, Intensity, Polygon, backwardInterval, epochMillis, forecastDays, nonEmptyString, pageNumber, pageSize } from './common.js';
import { arrayOf, closedObject, enumOf, named, openObject } from './json-schema.js';

/** interface.md 4.1. center and radius come together or not at all (only POWER_USER and above may omit both). */
export const GeometryRequest = named(
  'PrecipitationGeometryRequest',
  closedObject(
    {
      eventIds: arrayOf(nonEmptyString(128), { minItems: 0, maxItems: API_LIMITS.geometryEventIdsMax }),
      center: GeoPoint,
      radius: { type: 'number', format: 'double', exclusiveMinimum: 0, maximum: API_LIMITS.geometryRadiusMaxM, description: 'meters' },
    },
    ['eventIds'],
    { dependentRequired: { center: ['radius'], radius: ['center'] } },
  ),
);

export const GeometryResponse = named('PrecipitationGeometryPayload', {
  type: 'string',
  format: 'byte',
  description:
    'base64 of a protobuf stormhook.query.v1.PrecipitationFeatureCollection (proto/stormhook/query/v1/precipitation_geometry.proto): ' +
    'one MultiPolygon feature per requested event found, in request order. With Accept: application/x-protobuf the same bytes come raw.',
});

/** interface.md 4.2. */
export const PrecipitationPageRequest = named(
  'PrecipitationPageRequest',
  closedObject({ backwardInterval, endTimeEpoch: epochMillis, intensityThreshold: Intensity, pageNumber, pageSize }, [
    'backwardInterval',
    'endTimeEpoch',
    'pageNumber',
    'pageSize',
  ]),
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
  openObject({ precipitations: arrayOf(Precipitation), queryTimestamp: epochMillis, ...pageMeta }, ['precipitations', 'queryTimestamp', ...pageRequired]),
);

/** interface.md 4.3: all four fields required. */
export const ThunderstormPageRequest = named(
  'ThunderstormPageRequest',
  closedObject({ backwardInterval, endTimeEpoch: epochMillis, pageNumber, pageSize }, ['backwardInterval', 'endTimeEpoch', 'pageNumber', 'pageSize']),
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

/** Every metric name the forecast request schema knows (interface.md 2.11; its home is proto/, forecast_metrics.proto). */
export const FORECAST_METRICS = enumNames(queryV1.ForecastMetricName, 'FORECAST_METRIC_NAME_');

/** The metrics the current-forecast operation answers; the others of FORECAST_METRICS become warnings, not 400s. */
export const CURRENT_FORECAST_METRICS = enumNames(queryV1.CurrentForecastMetric, 'CURRENT_FORECAST_METRIC_');

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
      forecastDays: { ...forecastDays, description: 'number of local calendar days of hourly values, counting the day of startTime; default 1' },
      startTime: { ...epochMillis, description: 'epoch milliseconds; start of the forecast horizon; default now' },
    },
    ['location', 'metrics'],
  ),
);

const forecastValue = openObject(
  {
    time: {
      type: 'string',
      description: 'local time in `timezone` with its offset (2026-11-21T15:00+03:00); for daily forecasts the local date (2026-11-21)',
    },
    epochMillis: { ...epochMillis, description: 'the same instant: start of the hour or of the local day, epoch milliseconds' },
    isDay: { type: 'boolean', description: 'the sun is up at that hour (always true for daily values)' },
    value: { type: ['number', 'null'], description: 'in the unit of the series; null when the model has no value' },
    icon: { type: 'string', description: 'WEATHER_ICON only: icon file name, fetched from weatherIconUrlBase + icon' },
  },
  ['time', 'epochMillis', 'isDay', 'value'],
);

/**
 * Field names follow the incumbent's forecast responses (the contract lists the content, 2.11, but
 * not the names); the members after `warnings` are Stormhook's additions.
 */
export const CurrentForecastResponse = named(
  'PointForecast',
  openObject(
    {
      location: named(
        'ForecastLocation',
        openObject({ lng: { type: 'number' }, lat: { type: 'number' } }, ['lng', 'lat'], {
          description: 'position of the forecast grid cell that answers (the nearest cell of the latest run), decimal degrees',
        }),
      ),
      timezone: { type: 'string', description: 'IANA timezone of the requested point; every `time` is local to it' },
      elevation: { type: ['number', 'null'], description: 'model elevation of the grid cell above mean sea level, meters; null when unknown' },
      weatherIconUrlBase: { type: 'string', description: 'base address of the weather icons' },
      metricForecasts: arrayOf(
        openObject(
          {
            metric: { type: 'string', description: 'metric name as requested' },
            unit: { type: 'string', description: 'unit of every value, e.g. °C, %, km/h, °, mm, cm, W/m², MJ/m², m, WMO code' },
            forecasts: arrayOf(forecastValue, { description: 'values in time order: hourly, or one per local day' }),
          },
          ['metric', 'unit', 'forecasts'],
        ),
        { description: 'one series per answered metric, in request order' },
      ),
      warnings: arrayOf({ type: 'string' }, { description: 'metrics not valid for the operation or not provided by the model, partly covered days' }),
      requestedLocation: GeoPoint,
      gridCell: openObject({ id: { type: 'string' }, distance: { type: 'number', description: 'from the requested point, meters' } }),
      model: { type: 'string', description: 'forecast model of the run' },
      runId: { type: 'string', description: 'forecast run the values come from' },
      issueTime: { ...epochMillis, description: 'issue time of that run, epoch milliseconds' },
    },
    ['location', 'timezone', 'elevation', 'weatherIconUrlBase', 'metricForecasts', 'warnings'],
  ),
);

/** Every 2.11 name without the _AVG/_MIN/_MAX/_SUM statistics: the hourly forecast's metrics. */
export const HOURLY_FORECAST_METRICS = FORECAST_METRICS.filter((m) => !/_(AVG|MIN|MAX|SUM)$/.test(m) && m !== 'SHORTWAVE_RADIATION_SUM');

const solarPanel = {
  solarPanelTiltForRadiation: {
    type: 'number',
    minimum: 0,
    maximum: 90,
    description: 'degrees from horizontal of the panel GLOBAL_TILTED_RADIATION_GTI is computed for; default 0',
  },
  solarPanelAzimuthForRadiation: {
    type: 'number',
    minimum: -180,
    maximum: 180,
    description: 'degrees the panel faces: 0 south, -90 east, 90 west, ±180 north; default 0',
  },
} as const;

function forecastRequest(title: string, answered: string, defaultDays: number) {
  return named(
    title,
    closedObject(
      {
        location: GeoPoint,
        metrics: arrayOf(enumOf(FORECAST_METRICS), {
          minItems: 1,
          maxItems: FORECAST_METRICS.length,
          uniqueItems: true,
          description: `answered for this operation: ${answered}; other known metrics produce a warning`,
        }),
        forecastDays: { ...forecastDays, description: `number of local calendar days, counting the day of startTime; default ${defaultDays}` },
        startTime: { ...epochMillis, description: 'epoch milliseconds; start of the forecast horizon; default now' },
        ...solarPanel,
      },
      ['location', 'metrics'],
    ),
  );
}

/** The incumbent's POST /v1/forecasts/hourly. */
export const HourlyForecastRequest = forecastRequest(
  'HourlyForecastRequest',
  `${HOURLY_FORECAST_METRICS.join(', ')} (hourly values from startTime to the end of the last day)`,
  7,
);

/** The incumbent's daily forecast: statistics per local calendar day. */
export const DailyForecastRequest = forecastRequest(
  'DailyForecastRequest',
  'every _AVG, _MIN, _MAX and _SUM metric, SHORTWAVE_RADIATION_SUM (MJ/m²), and as daily values PRECIPITATION and SNOWFALL (totals), ' +
    'WIND_DIRECTION (dominant), WEATHER_ICON (most significant weather), GLOBAL_TILTED_RADIATION_GTI (MJ/m²)',
  7,
);

/** The incumbent's POST /v1/precipitations/within: backwardInterval up to 30 days, radius up to 50 km. */
export const PrecipitationsWithinRequest = named(
  'PrecipitationsWithinRequest',
  closedObject(
    {
      center: GeoPoint,
      radius: { type: 'number', format: 'double', minimum: 0, maximum: API_LIMITS.withinRadiusMaxM, description: 'meters' },
      backwardInterval: {
        ...backwardInterval,
        maximum: API_LIMITS.withinWindowSeconds.max,
        description: 'seconds (at most 30 days), reaching backward from endTimeEpoch',
      },
      endTimeEpoch: epochMillis,
      intensityThreshold: Intensity,
      pageNumber,
      pageSize,
    },
    ['center', 'radius', 'backwardInterval', 'endTimeEpoch', 'pageNumber', 'pageSize'],
  ),
);

/** The incumbent's POST /v1/thunderstorms/get (operation getByEventId). */
export const ThunderstormGetRequest = named(
  'ThunderstormEventRequest',
  closedObject({ eventId: { ...nonEmptyString(160), description: "tst_... as the list answers it, or the tracker's own id" } }, ['eventId']),
);
