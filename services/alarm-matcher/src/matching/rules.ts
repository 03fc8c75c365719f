import { intensityRank, severityRank } from '../domain/weather-enums.js';
import type { LightningFilter, PrecipitationFilter, ThunderstormFilter } from '../domain/registration.js';
import type { Rain, Storm, Strike } from '../domain/weather-events.js';

/**
 * The filter rules, exactly as documented in the README:
 * - lightning: `type` equal when set; |peak current| >= |peakCurrent| (amperes, either polarity);
 *   an in-cloud discharge with a known height passes only at or below `inCloudHeight` (metres above
 *   mean sea level); cloud-to-ground discharges and unknown heights are not limited by it.
 * - thunderstorm: see {@link thunderstormPasses}.
 * - precipitation: the intensity is in `intensities` (empty list: any intensity).
 */
export function lightningPasses(filter: LightningFilter, strike: Strike): boolean {
  if (filter.type !== undefined && strike.type !== filter.type) return false;
  if (filter.peakCurrentA !== undefined && Math.abs(strike.peakCurrentA) < Math.abs(filter.peakCurrentA)) return false;
  if (filter.inCloudHeightM !== undefined && strike.type === 'FLASH_IN_CLOUD' && strike.inCloudHeightM !== undefined) {
    if (strike.inCloudHeightM > filter.inCloudHeightM) return false;
  }
  return true;
}

/** Which of the storm's polygons touch the registration's area. */
export interface StormHits {
  cell: boolean;
  threat: boolean;
}

/** Which polygons a thunderstorm filter looks at: both when it names neither; otherwise the ones set true. */
export function polygonsWatched(filter: ThunderstormFilter): StormHits {
  if (filter.intersectsCellPolygon === undefined && filter.intersectsAffectedPolygon === undefined) return { cell: true, threat: true };
  return { cell: filter.intersectsCellPolygon === true, threat: filter.intersectsAffectedPolygon === true };
}

/**
 * A thunderstorm passes when a watched polygon touches the area, its severity is at or above
 * `severityThreshold` (LOW < MEDIUM < HIGH) and its speed is at or above `speedThreshold` (km/h).
 */
export function thunderstormPasses(filter: ThunderstormFilter, storm: Storm, hits: StormHits): boolean {
  const watched = polygonsWatched(filter);
  if (!((watched.cell && hits.cell) || (watched.threat && hits.threat))) return false;
  if (filter.severityThreshold !== undefined && severityRank(storm.severity) < severityRank(filter.severityThreshold)) return false;
  if (filter.speedThresholdKmh !== undefined && storm.speedKmh < filter.speedThresholdKmh) return false;
  return true;
}

export function precipitationPasses(filter: PrecipitationFilter, rain: Rain): boolean {
  return filter.intensities.length === 0 || filter.intensities.includes(rain.intensity);
}

/** How bad a condition is, for "worse" decisions: severity rank for storms, intensity rank for rain. */
export function stormRank(storm: Storm): number {
  return severityRank(storm.severity);
}

export function rainRank(rain: Rain): number {
  return intensityRank(rain.intensity);
}
