import { geohash } from './geo/geohash.js';
import type { LngLat } from './geo/types.js';

/**
 * Geohash precision of the area key. Precision 3 cells are 1.40625 degrees on a side (about
 * 156 km x 117 km over Turkey): some 70 cells cover the country, enough to spread six partitions
 * evenly, while one storm usually stays inside one or two cells so its updates stay in order.
 * Changing it moves keys between partitions: a migration, like renaming a topic.
 */
export const AREA_KEY_PRECISION = 3;

/** The Kafka key of a weather event whose representative point is `p`. */
export function areaKey(p: LngLat): string {
  return geohash(p.lat, p.lng, AREA_KEY_PRECISION);
}
