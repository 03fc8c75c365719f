import { INTENSITIES } from './common.js';
import { arrayOf, closedObject, enumOf, named } from './json-schema.js';

export const LIGHTNING_TYPES = ['FLASH_CLOUD_TO_GROUND', 'FLASH_IN_CLOUD'] as const;
export const THUNDERSTORM_SEVERITIES = ['LOW', 'MEDIUM', 'HIGH'] as const;

/**
 * interface.md 2.3 filter, shared by geometry and point alarms (2.5). The matching rules are the
 * alarm-matcher's (services/alarm-matcher/README.md, "Matching rules"); the descriptions carry them
 * with their units so the OpenAPI document is enough to write a filter. Bounds match the matcher's,
 * which catch unit mistakes (kA for A, km for m).
 */
export const WeatherAlarmFilter = named(
  'WeatherAlarmFilter',
  closedObject(
    {
      lightning: closedObject(
        {
          type: enumOf(LIGHTNING_TYPES, { description: "only discharges of this type match; absent: both types" }),
          peakCurrent: {
            type: 'number',
            minimum: -1_000_000,
            maximum: 1_000_000,
            description:
              'amperes (A, not kA). A discharge matches when the absolute value of its peak current is at least the absolute ' +
              'value of this: the sign is ignored and both polarities match (the payload keeps the sign, negative = negative ' +
              'polarity). Detected discharges start around 1,000 A, so a smaller value filters nothing (a warning says so). ' +
              'Absent: any current',
          },
          inCloudHeight: {
            type: 'number',
            minimum: 0,
            maximum: 25_000,
            description:
              'metres above mean sea level. An in-cloud discharge with a known height matches only at or below it; ' +
              'cloud-to-ground discharges are not limited by it. Absent: any height',
          },
        },
        [],
        { description: 'a discharge whose located point lies in the area matches when every criterion set here holds; absent: lightning never triggers' },
      ),
      thunderstorm: closedObject(
        {
          intersectsAffectedPolygon: {
            type: 'boolean',
            description: 'match when the storm threat (affected) polygon touches the area (shares any point)',
          },
          intersectsCellPolygon: { type: 'boolean', description: 'match when the storm cell polygon touches the area' },
          severityThreshold: enumOf(THUNDERSTORM_SEVERITIES, {
            description: 'minimum severity, inclusive (LOW < MEDIUM < HIGH); absent: every severity',
          }),
          speedThreshold: {
            type: 'number',
            minimum: 0,
            maximum: 500,
            description: 'minimum storm speed in km/h, inclusive (the storm speed, or the cell speed when the feed gave none); absent: any speed',
          },
        },
        [],
        {
          description:
            'with neither polygon flag set, either polygon touching the area matches; with one or both set, only those set to ' +
            'true count (both false never matches, a warning says so). Then severity and speed must reach their thresholds. ' +
            'Absent: thunderstorms never trigger',
        },
      ),
      precipitation: closedObject(
        {
          intensities: arrayOf(enumOf(INTENSITIES), {
            uniqueItems: true,
            description: 'intensity classes that match; empty: any intensity',
          }),
        },
        [],
        {
          description:
            "the precipitation area (radar observation or nowcast) touches the alarm's area and its intensity is listed; absent: precipitation never triggers",
        },
      ),
    },
    [],
    { description: 'an absent member means that kind of weather never triggers the registration (no member at all: a warning)' },
  ),
);

/** One accepted value of a forecast filter field and what it means in numbers. */
export interface ForecastThresholdScale {
  metric: string;
  unit: string;
  comparison: '>=' | '<=';
  aggregation: string;
  values: ReadonlyArray<readonly [string, number]>;
}

/**
 * The forecast threshold table as the alarm-matcher defines it (services/alarm-matcher
 * domain/forecast-thresholds.ts, served by GET /v1/alarms/forecasts/thresholds). Copied here so the
 * OpenAPI document lists the values with their numbers; test/src/alarms checks that the copy equals
 * the matcher's table, so the two cannot drift apart unnoticed.
 */
export const FORECAST_THRESHOLD_TABLE: Readonly<Record<string, ForecastThresholdScale>> = {
  precipitationThreshold: {
    metric: 'PRECIPITATION',
    unit: 'mm',
    comparison: '>=',
    aggregation: 'total precipitation of the UTC day',
    values: [
      ['LIGHT', 1],
      ['MODERATE', 10],
      ['HEAVY', 25],
      ['VERY_HEAVY', 50],
      ['EXTREME', 75],
    ],
  },
  snowFallThreshold: {
    metric: 'SNOWFALL',
    unit: 'cm',
    comparison: '>=',
    aggregation: 'total snowfall of the UTC day',
    values: [
      ['LIGHT', 1],
      ['MODERATE', 5],
      ['HEAVY', 10],
      ['VERY_HEAVY', 20],
      ['EXTREME', 40],
    ],
  },
  windGustThreshold: {
    metric: 'WIND_GUSTS_MAX',
    unit: 'km/h',
    comparison: '>=',
    aggregation: 'maximum wind gust of the UTC day',
    values: [
      ['STRONG_WIND', 50],
      ['GALE', 62],
      ['STRONG_GALE', 75],
      ['STORM', 89],
      ['VIOLENT_STORM', 103],
      ['HURRICANE', 118],
    ],
  },
  hotTemperatureThreshold: {
    metric: 'TEMPERATURE_MAX',
    unit: '°C',
    comparison: '>=',
    aggregation: 'highest air temperature of the UTC day',
    values: [
      ['WARM', 30],
      ['HOT_SNAP', 35],
      ['HEATWAVE', 38],
      ['EXTREME_HEAT', 40],
    ],
  },
  coldTemperatureThreshold: {
    metric: 'TEMPERATURE_MIN',
    unit: '°C',
    comparison: '<=',
    aggregation: 'lowest air temperature of the UTC day',
    values: [
      ['FROST', 0],
      ['COLD_SNAP', -5],
      ['SEVERE_COLD', -10],
      ['EXTREME_COLD', -20],
    ],
  },
};

function thresholdField(field: string, example: string) {
  const scale = FORECAST_THRESHOLD_TABLE[field];
  if (!scale) throw new Error(`no threshold scale for ${field}`);
  const values = scale.values.map(([name, value]) => `${name} ${value} ${scale.unit}`).join(', ');
  return enumOf(
    scale.values.map(([name]) => name),
    {
      examples: [example],
      description:
        `metric ${scale.metric}: a day breaches when its ${scale.aggregation} (${scale.unit}) is ${scale.comparison} the ` +
        `threshold: ${values}. Absent: not evaluated`,
    },
  );
}

/**
 * interface.md 2.4 filter: at each delivery slot the days of the forecastDays window whose daily value
 * breaches a set threshold are reported (ADMINISTRATIVE: worst grid cell of the district; POINT: the
 * nearest grid cell).
 */
export const ForecastAlarmFilter = named(
  'ForecastAlarmFilter',
  closedObject(
    {
      precipitationThreshold: thresholdField('precipitationThreshold', 'MODERATE'),
      snowFallThreshold: thresholdField('snowFallThreshold', 'LIGHT'),
      windGustThreshold: thresholdField('windGustThreshold', 'STRONG_WIND'),
      hotTemperatureThreshold: thresholdField('hotTemperatureThreshold', 'HOT_SNAP'),
      coldTemperatureThreshold: thresholdField('coldTemperatureThreshold', 'COLD_SNAP'),
    },
    [],
    { description: 'thresholds from the table of GET /v1/alarms/forecasts/thresholds; no threshold set: the alarm never triggers (a warning says so)' },
  ),
);
