import { flatPolygonsIntersect, pointInAny, unionBBox, type FlatPolygon } from '../geometry/flat-polygons.js';
import type { BBox } from '../geometry/types.js';

/** One area a subscription can name: a province (city) of a country, with its boundary. */
export interface SubscriptionArea {
  /** `<country>:<city id>`, e.g. `TUR:34`; what the indexes store. */
  key: string;
  countryCode: string;
  name: string;
  parts: FlatPolygon[];
  bbox: BBox;
}

/** One allowed part of a subscription's geography (stormhook.query.v1.AllowedArea). */
export interface AllowedAreaInput {
  countryCode: string;
  region: string;
}

/**
 * Region names are typed by operators ("Istanbul") and come from boundary data ("İstanbul"):
 * compared without case and diacritics, Turkish dotless ı folded to i (as identity does).
 */
export function foldRegion(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').replace(/ı/g, 'i').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The provinces of the supported countries (from the geo service), used to tag every event with
 * the areas it touches when it is consumed, and to turn a subscription's {country, region} list
 * into those tags at query time.
 */
export class AreaIndex {
  private readonly byCountry = new Map<string, SubscriptionArea[]>();

  constructor(readonly areas: readonly SubscriptionArea[]) {
    for (const area of areas) {
      const list = this.byCountry.get(area.countryCode) ?? [];
      list.push(area);
      this.byCountry.set(area.countryCode, list);
    }
  }

  /** Keys of the areas a geometry shares at least one point with. */
  touched(parts: readonly FlatPolygon[], bbox: BBox = unionBBox(parts)): string[] {
    const keys: string[] = [];
    for (const area of this.areas) {
      if (flatPolygonsIntersect(parts, bbox, area.parts, area.bbox)) keys.push(area.key);
    }
    return keys;
  }

  /** The area containing a point, if any. */
  areaAt(lng: number, lat: number): SubscriptionArea | undefined {
    return this.areas.find((a) => lng >= a.bbox.minLng && lng <= a.bbox.maxLng && lat >= a.bbox.minLat && lat <= a.bbox.maxLat && pointInAny(lng, lat, a.parts));
  }

  /** The area keys a geography allows, and the region names that matched no area. */
  resolve(allowed: readonly AllowedAreaInput[]): { keys: Set<string>; unknown: string[] } {
    const keys = new Set<string>();
    const unknown: string[] = [];
    for (const { countryCode, region } of allowed) {
      const areas = this.byCountry.get(countryCode.toUpperCase()) ?? [];
      if (region.trim() === '') {
        for (const a of areas) keys.add(a.key);
        continue;
      }
      const wanted = foldRegion(region);
      const match = areas.filter((a) => foldRegion(a.name) === wanted);
      if (match.length === 0) unknown.push(`${countryCode}/${region}`);
      for (const a of match) keys.add(a.key);
    }
    return { keys, unknown };
  }
}
