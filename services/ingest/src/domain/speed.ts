import type { EnumNameOf, feedV1 } from '@stormhook/proto';

/** Speed units a feed may use; everything downstream is in km/h. */
export type SpeedUnitName = EnumNameOf<typeof feedV1.SpeedUnit>;

const KMH_PER_UNIT: Record<SpeedUnitName, number> = {
  KILOMETRES_PER_HOUR: 1,
  MILES_PER_HOUR: 1.609344,
  METRES_PER_SECOND: 3.6,
  KNOTS: 1.852,
};

/** Converts to km/h, rounded to 0.001 km/h so converted values hash and compare stably. */
export function toKmh(value: number, unit: SpeedUnitName): number {
  return Math.round(value * KMH_PER_UNIT[unit] * 1000) / 1000;
}

/** Fastest storm motion accepted, in km/h: well above any observed thunderstorm cell. */
export const MAX_STORM_SPEED_KMH = 300;
