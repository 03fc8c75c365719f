import { enumNames, weatherV1 } from '@stormhook/proto';

/** Public intensity names, weakest first (interface.md 2.7); the rank is the position + 1. */
export const INTENSITIES = enumNames(weatherV1.PrecipitationIntensity, 'PRECIPITATION_INTENSITY_');
export type Intensity = (typeof INTENSITIES)[number];

const INTENSITY_PREFIX = 'PRECIPITATION_INTENSITY_';

/** 1 (DRIZZLE) to 6 (EXTREME); 0 for UNSPECIFIED. */
export function intensityRank(intensity: weatherV1.PrecipitationIntensity): number {
  return INTENSITIES.indexOf(intensity.slice(INTENSITY_PREFIX.length) as Intensity) + 1;
}

export function intensityOfRank(rank: number): weatherV1.PrecipitationIntensity {
  const name = INTENSITIES[rank - 1];
  return name ? (`${INTENSITY_PREFIX}${name}` as weatherV1.PrecipitationIntensity) : 'PRECIPITATION_INTENSITY_UNSPECIFIED';
}

/** Public name (DRIZZLE...) of a weather intensity; empty for UNSPECIFIED. */
export function publicIntensity(intensity: weatherV1.PrecipitationIntensity): string {
  return intensity === 'PRECIPITATION_INTENSITY_UNSPECIFIED' ? '' : intensity.slice(INTENSITY_PREFIX.length);
}

/** Public severity names, lowest first. */
const SEVERITIES = enumNames(weatherV1.ThunderstormSeverity, 'THUNDERSTORM_SEVERITY_');

/** 1 (LOW) to 3 (HIGH); 0 for UNSPECIFIED. */
export function severityRank(severity: weatherV1.ThunderstormSeverity): number {
  return SEVERITIES.indexOf(severity.slice('THUNDERSTORM_SEVERITY_'.length) as (typeof SEVERITIES)[number]) + 1;
}
