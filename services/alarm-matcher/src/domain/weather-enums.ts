import { enumNames, weatherV1 } from '@stormhook/proto';

/**
 * The weather enumerations filters and payloads use, in their public spelling (the proto enums
 * without their prefix). Ranks order them for "at or above a threshold" and "worse" decisions, so
 * they keep the declaration order of proto/stormhook/weather/v1.
 */
export const LIGHTNING_TYPES = enumNames(weatherV1.LightningType, 'LIGHTNING_TYPE_');
export type LightningType = (typeof LIGHTNING_TYPES)[number];

/** LOW < MEDIUM < HIGH. */
export const SEVERITIES = enumNames(weatherV1.ThunderstormSeverity, 'THUNDERSTORM_SEVERITY_');
export type Severity = (typeof SEVERITIES)[number];

/** Rain-rate classes of the feed contract, weakest first (DRIZZLE below 0.5 mm/h ... EXTREME from 50 mm/h). */
export const INTENSITIES = enumNames(weatherV1.PrecipitationIntensity, 'PRECIPITATION_INTENSITY_');
export type Intensity = (typeof INTENSITIES)[number];

/** 1-based rank: LOW 1, MEDIUM 2, HIGH 3. */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity) + 1;
}

/** 1-based rank: DRIZZLE 1 ... EXTREME 6. */
export function intensityRank(intensity: Intensity): number {
  return INTENSITIES.indexOf(intensity) + 1;
}
