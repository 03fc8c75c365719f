import { foldRegion } from '@stormhook/access';
import type { BBox } from '@stormhook/geometry';
import { bboxOfParts, flatPolygonsIntersect, pointInAny, type FlatPolygon } from '../geometry/flat-polygons.js';

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
 * The provinces of the supported countries (from the geo service), used to tag every event with
 * the areas it touches when it is consumed, and to turn a subscription's {country, region} list
 * into those tags at query time.
 */
/** The areas of one geography (shared: callers must not change it). */
export interface Resolved {
  keys: ReadonlySet<string>;
  unknown: readonly string[];
}

/** Geographies remembered at most; a full memory starts over. */
const MAX_RESOLVED = 10_000;

export class AreaIndex {
  private readonly byCountry = new Map<string, SubscriptionArea[]>();
  private readonly resolved = new Map<string, Resolved>();

  constructor(readonly areas: readonly SubscriptionArea[]) {
    for (const area of areas) {
      const list = this.byCountry.get(area.countryCode) ?? [];
      list.push(area);
      this.byCountry.set(area.countryCode, list);
    }
  }

  /** Keys of the areas a geometry shares at least one point with. */
  touched(parts: readonly FlatPolygon[], bbox: BBox = bboxOfParts(parts)): string[] {
    const keys: string[] = [];
    for (const area of this.areas) {
      if (flatPolygonsIntersect(parts, bbox, area.parts, area.bbox)) keys.push(area.key);
    }
    return keys;
  }

  /** The area containing a point, if any. */
  areaAt(lng: number, lat: number): SubscriptionArea | undefined {
    return this.areas.find(
      (a) => lng >= a.bbox.minLng && lng <= a.bbox.maxLng && lat >= a.bbox.minLat && lat <= a.bbox.maxLat && pointInAny(lng, lat, a.parts),
    );
  }

  /**
   * The area keys a geography allows, and the region names that matched no area. Remembered per
   * geography (the index never changes; a new boundary load builds a new index): every list query
   * of a restricted caller resolves its subscription, and most callers share a few geographies.
   */
  resolve(allowed: readonly AllowedAreaInput[]): Resolved {
    const key = allowed.map((a) => `${a.countryCode}\u0000${a.region}`).join('\u0001');
    let resolved = this.resolved.get(key);
    if (!resolved) {
      resolved = this.resolveNow(allowed);
      if (this.resolved.size >= MAX_RESOLVED) this.resolved.clear();
      this.resolved.set(key, resolved);
    }
    return resolved;
  }

  private resolveNow(allowed: readonly AllowedAreaInput[]): Resolved {
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
