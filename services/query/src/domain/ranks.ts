import { enumName, enumNames, enumValue, weatherV1 } from '@stormhook/proto';

/** Public intensity names, weakest first (interface.md 2.7); the rank is the position + 1. */
export const INTENSITIES = enumNames(weatherV1.PrecipitationIntensity, 'PRECIPITATION_INTENSITY_');
export type Intensity = (typeof INTENSITIES)[number];

/** 1 (DRIZZLE) to 6 (EXTREME); 0 for UNSPECIFIED. */
export function intensityRank(intensity: weatherV1.PrecipitationIntensity): number {
  const name = enumName(weatherV1.PrecipitationIntensity, intensity);
  return name === undefined ? 0 : INTENSITIES.indexOf(name) + 1;
}

export function intensityOfRank(rank: number): weatherV1.PrecipitationIntensity {
  const name = INTENSITIES[rank - 1];
  return name ? enumValue(weatherV1.PrecipitationIntensity, name) : 'PRECIPITATION_INTENSITY_UNSPECIFIED';
}

/** Public name (DRIZZLE...) of a weather intensity; empty for UNSPECIFIED. */
export function publicIntensity(intensity: weatherV1.PrecipitationIntensity): string {
  return enumName(weatherV1.PrecipitationIntensity, intensity) ?? '';
}

/** Public severity names, lowest first. */
const SEVERITIES = enumNames(weatherV1.ThunderstormSeverity, 'THUNDERSTORM_SEVERITY_');

/** 1 (LOW) to 3 (HIGH); 0 for UNSPECIFIED. */
export function severityRank(severity: weatherV1.ThunderstormSeverity): number {
  const name = enumName(weatherV1.ThunderstormSeverity, severity);
  return name === undefined ? 0 : SEVERITIES.indexOf(name) + 1;
}
