import { enumNames, weatherV1 } from '@stormhook/proto';

/** Intensity classes in increasing order, as the public contract names them (2.7): the feed's enum without its prefix. */
export const INTENSITIES = enumNames(weatherV1.PrecipitationIntensity, 'PRECIPITATION_INTENSITY_');
export type Intensity = (typeof INTENSITIES)[number];

/**
 * Rain rate to intensity: each class starts at its lower bound (inclusive) and ends below the next.
 * The bounds follow common radar practice (Met Office / AMS classes, split further at the heavy
 * end); with the Marshall-Palmer relation Z = 200 R^1.6 they are about 19, 30, 39, 45 and 50 dBZ.
 * The same table is documented in proto/stormhook/feed/v1/FEEDS.md; change both together.
 */
export const RAIN_RATE_TABLE: ReadonlyArray<{ intensity: Intensity; fromMmPerH: number }> = [
  { intensity: 'DRIZZLE', fromMmPerH: 0 },
  { intensity: 'LIGHT', fromMmPerH: 0.5 },
  { intensity: 'MODERATE', fromMmPerH: 2.5 },
  { intensity: 'HEAVY', fromMmPerH: 10 },
  { intensity: 'VERY_HEAVY', fromMmPerH: 25 },
  { intensity: 'EXTREME', fromMmPerH: 50 },
];

/** Highest rain rate accepted: above any rate measured over a radar pixel for a few minutes. */
export const MAX_RAIN_RATE_MM_PER_H = 500;

/** The class of a rain rate (mm/h, above 0). */
export function intensityForRainRate(mmPerH: number): Intensity {
  let found: Intensity = 'DRIZZLE';
  for (const row of RAIN_RATE_TABLE) {
    if (mmPerH >= row.fromMmPerH) found = row.intensity;
  }
  return found;
}

/** Position of a class in the order DRIZZLE < ... < EXTREME, for thresholds. */
export function intensityRank(intensity: Intensity): number {
  return INTENSITIES.indexOf(intensity);
}
