import { enumName, enumNames, queryV1, weatherV1, type EnumNameOf } from '@stormhook/proto';

/**
 * Every metric name of interface.md 2.11 and how each forecast operation answers it. A name known
 * here but not valid for an operation is a warning in the answer, never a failure (2.11).
 *
 * WARNING: names, units and aggregations are part of the public forecast responses.
 */

export type SourceMetric = Exclude<weatherV1.ForecastMetric, 'FORECAST_METRIC_UNSPECIFIED'>;
export type ForecastKindName = EnumNameOf<typeof queryV1.ForecastKind>;

/** How one value is made from the model's hourly series. */
export type Derivation =
  | { kind: 'series'; source: SourceMetric }
  /** WMO weather code with an icon. */
  | { kind: 'icon' }
  /** Irradiance on a tilted panel from GHI, DNI and diffuse radiation (W/m²). */
  | { kind: 'gti' };

export type Aggregation = 'avg' | 'min' | 'max' | 'sum' | 'energy' | 'dominant-direction' | 'icon';

export interface HourlyMetric {
  unit: string;
  derivation: Derivation;
}

export interface DailyMetric {
  unit: string;
  derivation: Derivation;
  aggregation: Aggregation;
}

const series = (source: SourceMetric): Derivation => ({ kind: 'series', source });

/** Hourly meaning of the plain names (the preceding hour for sums and means, as the feed defines). */
export const HOURLY_METRICS: Readonly<Record<string, HourlyMetric>> = {
  WEATHER_ICON: { unit: 'WMO code', derivation: { kind: 'icon' } },
  TEMPERATURE: { unit: '°C', derivation: series('FORECAST_METRIC_TEMPERATURE') },
  APPARENT_TEMPERATURE: { unit: '°C', derivation: series('FORECAST_METRIC_APPARENT_TEMPERATURE') },
  HUMIDITY: { unit: '%', derivation: series('FORECAST_METRIC_HUMIDITY') },
  CLOUD_COVER: { unit: '%', derivation: series('FORECAST_METRIC_CLOUD_COVER') },
  WIND_SPEED: { unit: 'km/h', derivation: series('FORECAST_METRIC_WIND_SPEED') },
  WIND_GUSTS: { unit: 'km/h', derivation: series('FORECAST_METRIC_WIND_GUSTS') },
  WIND_DIRECTION: { unit: '°', derivation: series('FORECAST_METRIC_WIND_DIRECTION') },
  SNOWFALL: { unit: 'cm', derivation: series('FORECAST_METRIC_SNOWFALL') },
  PRECIPITATION: { unit: 'mm', derivation: series('FORECAST_METRIC_PRECIPITATION') },
  PRECIPITATION_PROBABILITY: { unit: '%', derivation: series('FORECAST_METRIC_PRECIPITATION_PROBABILITY') },
  REF_EVAPORATION_TRANSPIRATION_ET0: { unit: 'mm', derivation: series('FORECAST_METRIC_REF_EVAPORATION_TRANSPIRATION_ET0') },
  DEW_POINT: { unit: '°C', derivation: series('FORECAST_METRIC_DEW_POINT') },
  SOIL_TEMPERATURE: { unit: '°C', derivation: series('FORECAST_METRIC_SOIL_TEMPERATURE') },
  SOIL_MOISTURE: { unit: 'm³/m³', derivation: series('FORECAST_METRIC_SOIL_MOISTURE') },
  GLOBAL_TILTED_RADIATION_GTI: { unit: 'W/m²', derivation: { kind: 'gti' } },
  DIRECT_NORMAL_IRRADIANCE_DNI: { unit: 'W/m²', derivation: series('FORECAST_METRIC_DIRECT_NORMAL_IRRADIANCE_DNI') },
  SHORTWAVE_SOLAR_RADIATION_GHI: { unit: 'W/m²', derivation: series('FORECAST_METRIC_SHORTWAVE_SOLAR_RADIATION_GHI') },
  VISIBILITY: { unit: 'm', derivation: series('FORECAST_METRIC_VISIBILITY') },
};

/** The metrics the current forecast answers (interface.md 2.11; declared in proto/, forecast_metrics.proto). */
export const CURRENT_METRICS = enumNames(queryV1.CurrentForecastMetric, 'CURRENT_FORECAST_METRIC_');

const STATISTICS: Array<[string, SourceMetric, string]> = [
  ['TEMPERATURE', 'FORECAST_METRIC_TEMPERATURE', '°C'],
  ['APPARENT_TEMPERATURE', 'FORECAST_METRIC_APPARENT_TEMPERATURE', '°C'],
  ['HUMIDITY', 'FORECAST_METRIC_HUMIDITY', '%'],
  ['CLOUD_COVER', 'FORECAST_METRIC_CLOUD_COVER', '%'],
  ['WIND_SPEED', 'FORECAST_METRIC_WIND_SPEED', 'km/h'],
  ['WIND_GUSTS', 'FORECAST_METRIC_WIND_GUSTS', 'km/h'],
  ['PRECIPITATION_PROBABILITY', 'FORECAST_METRIC_PRECIPITATION_PROBABILITY', '%'],
  ['DEW_POINT', 'FORECAST_METRIC_DEW_POINT', '°C'],
  ['VISIBILITY', 'FORECAST_METRIC_VISIBILITY', 'm'],
];

/**
 * Daily meaning, per local calendar day: the _AVG/_MIN/_MAX statistics of the hourly values, the
 * _SUM totals, and daily versions of the plain names that have an obvious one (totals of
 * precipitation and snowfall, dominant wind direction, the day's most significant weather).
 */
export const DAILY_METRICS: Readonly<Record<string, DailyMetric>> = {
  ...Object.fromEntries(
    STATISTICS.flatMap(([name, source, unit]) =>
      (['avg', 'min', 'max'] as const).map((aggregation) => [`${name}_${aggregation.toUpperCase()}`, { unit, derivation: series(source), aggregation }]),
    ),
  ),
  REF_EVAPORATION_TRANSPIRATION_ET0_SUM: { unit: 'mm', derivation: series('FORECAST_METRIC_REF_EVAPORATION_TRANSPIRATION_ET0'), aggregation: 'sum' },
  SHORTWAVE_RADIATION_SUM: { unit: 'MJ/m²', derivation: series('FORECAST_METRIC_SHORTWAVE_SOLAR_RADIATION_GHI'), aggregation: 'energy' },
  PRECIPITATION: { unit: 'mm', derivation: series('FORECAST_METRIC_PRECIPITATION'), aggregation: 'sum' },
  SNOWFALL: { unit: 'cm', derivation: series('FORECAST_METRIC_SNOWFALL'), aggregation: 'sum' },
  WIND_DIRECTION: { unit: '°', derivation: series('FORECAST_METRIC_WIND_DIRECTION'), aggregation: 'dominant-direction' },
  WEATHER_ICON: { unit: 'WMO code', derivation: { kind: 'icon' }, aggregation: 'icon' },
  GLOBAL_TILTED_RADIATION_GTI: { unit: 'MJ/m²', derivation: { kind: 'gti' }, aggregation: 'energy' },
};

/** Whether `metric` is answered by `kind`. */
export function validFor(kind: ForecastKindName, metric: string): boolean {
  if (kind === 'CURRENT') return (CURRENT_METRICS as readonly string[]).includes(metric);
  if (kind === 'HOURLY') return Object.hasOwn(HOURLY_METRICS, metric);
  return Object.hasOwn(DAILY_METRICS, metric);
}

/** The hourly source series a derivation needs, to say which are missing from a model. */
export function sourcesOf(derivation: Derivation): SourceMetric[] {
  switch (derivation.kind) {
    case 'series':
      return [derivation.source];
    case 'icon':
      return ['FORECAST_METRIC_WEATHER_CODE'];
    case 'gti':
      return ['FORECAST_METRIC_SHORTWAVE_SOLAR_RADIATION_GHI'];
  }
}

/** The feed's public name of a source metric (FORECAST_METRIC_WIND_GUSTS -> WIND_GUSTS). */
export function sourceName(source: SourceMetric): string {
  return enumName(weatherV1.ForecastMetric, source) ?? source;
}
