import type { ForecastMetricName } from '../domain/forecast-metrics.js';

/**
 * Open-Meteo hourly variables and the feed metric each becomes, with the unit conversions the API's
 * unit options (and self-hosted defaults) can produce. The feed's units are the canonical ones
 * (°C, km/h, mm, cm, m), so with Open-Meteo's defaults every factor is 1; anything else is converted
 * here, and an unknown unit fails the run instead of publishing wrong numbers.
 */
export const OPEN_METEO_VARIABLES: ReadonlyArray<{ variable: string; metric: ForecastMetricName }> = [
  { variable: 'temperature_2m', metric: 'TEMPERATURE' },
  { variable: 'apparent_temperature', metric: 'APPARENT_TEMPERATURE' },
  { variable: 'relative_humidity_2m', metric: 'HUMIDITY' },
  { variable: 'dew_point_2m', metric: 'DEW_POINT' },
  { variable: 'cloud_cover', metric: 'CLOUD_COVER' },
  { variable: 'wind_speed_10m', metric: 'WIND_SPEED' },
  { variable: 'wind_gusts_10m', metric: 'WIND_GUSTS' },
  { variable: 'wind_direction_10m', metric: 'WIND_DIRECTION' },
  { variable: 'precipitation', metric: 'PRECIPITATION' },
  { variable: 'precipitation_probability', metric: 'PRECIPITATION_PROBABILITY' },
  { variable: 'snowfall', metric: 'SNOWFALL' },
  { variable: 'et0_fao_evapotranspiration', metric: 'REF_EVAPORATION_TRANSPIRATION_ET0' },
  { variable: 'soil_temperature_0cm', metric: 'SOIL_TEMPERATURE' },
  { variable: 'soil_moisture_0_to_1cm', metric: 'SOIL_MOISTURE' },
  { variable: 'shortwave_radiation', metric: 'SHORTWAVE_SOLAR_RADIATION_GHI' },
  { variable: 'direct_normal_irradiance', metric: 'DIRECT_NORMAL_IRRADIANCE_DNI' },
  { variable: 'diffuse_radiation', metric: 'DIFFUSE_RADIATION' },
  { variable: 'visibility', metric: 'VISIBILITY' },
  { variable: 'weather_code', metric: 'WEATHER_CODE' },
  { variable: 'is_day', metric: 'IS_DAY' },
];

type Convert = (value: number) => number;
const same: Convert = (v) => v;

/** Canonical unit of each metric -> the units Open-Meteo may answer in and how to convert them. */
const CONVERSIONS: Record<string, Record<string, Convert>> = {
  '°C': { '°C': same, '°F': (v) => ((v - 32) * 5) / 9 },
  'km/h': { 'km/h': same, 'm/s': (v) => v * 3.6, mph: (v) => v * 1.609344, kn: (v) => v * 1.852, kt: (v) => v * 1.852 },
  mm: { mm: same, inch: (v) => v * 25.4 },
  cm: { cm: same, inch: (v) => v * 2.54 },
  m: { m: same, ft: (v) => v * 0.3048 },
  '%': { '%': same },
  '°': { '°': same },
  'm³/m³': { 'm³/m³': same },
  'W/m²': { 'W/m²': same },
  'WMO code': { 'wmo code': same, '': same },
  '0/1': { '': same },
};

/** The converter from Open-Meteo's `unit` to the metric's canonical unit, or undefined if unknown. */
export function converterFor(canonicalUnit: string, unit: string): Convert | undefined {
  return CONVERSIONS[canonicalUnit]?.[unit.trim()];
}
