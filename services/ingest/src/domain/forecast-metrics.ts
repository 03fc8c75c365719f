import type { EnumNameOf, weatherV1 } from '@stormhook/proto';

/**
 * The hourly metrics of the forecast feed with their canonical unit and the range a value must lie
 * in (a value outside is a unit mix-up or a broken model field, so the record is rejected). The
 * names are those of the weather vocabulary's ForecastMetric (proto/stormhook/weather/v1/
 * vocabulary.proto), every one of them and no other: the compiler holds the list to the enum.
 */
export const FORECAST_METRICS = {
  TEMPERATURE: { unit: '°C', min: -90, max: 60 },
  APPARENT_TEMPERATURE: { unit: '°C', min: -100, max: 75 },
  HUMIDITY: { unit: '%', min: 0, max: 100 },
  DEW_POINT: { unit: '°C', min: -100, max: 40 },
  CLOUD_COVER: { unit: '%', min: 0, max: 100 },
  WIND_SPEED: { unit: 'km/h', min: 0, max: 400 },
  WIND_GUSTS: { unit: 'km/h', min: 0, max: 500 },
  WIND_DIRECTION: { unit: '°', min: 0, max: 360 },
  PRECIPITATION: { unit: 'mm', min: 0, max: 500 },
  PRECIPITATION_PROBABILITY: { unit: '%', min: 0, max: 100 },
  SNOWFALL: { unit: 'cm', min: 0, max: 100 },
  REF_EVAPORATION_TRANSPIRATION_ET0: { unit: 'mm', min: 0, max: 10 },
  SOIL_TEMPERATURE: { unit: '°C', min: -80, max: 90 },
  SOIL_MOISTURE: { unit: 'm³/m³', min: 0, max: 1 },
  SHORTWAVE_SOLAR_RADIATION_GHI: { unit: 'W/m²', min: 0, max: 1500 },
  DIRECT_NORMAL_IRRADIANCE_DNI: { unit: 'W/m²', min: 0, max: 1500 },
  DIFFUSE_RADIATION: { unit: 'W/m²', min: 0, max: 1500 },
  VISIBILITY: { unit: 'm', min: 0, max: 1_000_000 },
  WEATHER_CODE: { unit: 'WMO code', min: 0, max: 99 },
  IS_DAY: { unit: '0/1', min: 0, max: 1 },
} as const satisfies Record<EnumNameOf<typeof weatherV1.ForecastMetric>, { unit: string; min: number; max: number }>;

export type ForecastMetricName = keyof typeof FORECAST_METRICS;

export function isForecastMetricName(name: string): name is ForecastMetricName {
  return Object.hasOwn(FORECAST_METRICS, name);
}
