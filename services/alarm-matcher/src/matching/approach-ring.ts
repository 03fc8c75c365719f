import { bboxContains, expandBBox, type BBox } from '@stormhook/geometry';
import type { RealtimeRegistration } from '../domain/registration.js';
import type { Grid } from '../geometry/grid.js';
import type { WatchedArea } from './area-entry.js';
import { lightningPasses } from './rules.js';
import type { Strike } from '../domain/weather-events.js';

/** A strike in a registration's approach ring: beyond its area, within `approachRadiusM` of its edge. */
export interface RingMatch {
  registration: RealtimeRegistration;
  area: WatchedArea;
  /** Metres from the area's edge to the strike (above 0: the strike is outside the area). */
  distanceM: number;
}

interface RingEntry {
  registration: RealtimeRegistration;
  area: WatchedArea;
  ringM: number;
  /** The area's box grown by the ring: a strike outside it cannot be in the ring. */
  box: BBox;
  cells: number[];
}

const NONE: readonly RingMatch[] = Object.freeze([]);

/**
 * The outer rings of the lightning registrations that asked for one (`approachRadius`), filed on
 * their own grid. Kept apart from the areas the strike hot path tests so that platforms without
 * rings pay one empty-map check per strike, and those with rings one cell lookup.
 */
export class ApproachRings {
  private readonly byRegistration = new Map<string, RingEntry>();
  private readonly cells: Array<RingEntry[] | undefined>;

  constructor(private readonly grid: Grid) {
    this.cells = new Array(grid.size);
  }

  get size(): number {
    return this.byRegistration.size;
  }

  /** Files the registration's ring, or none when its filter asks for none. */
  upsert(registration: RealtimeRegistration, area: WatchedArea): void {
    this.remove(registration.registrationId);
    const ringM = registration.filter.lightning?.approachRadiusM;
    if (ringM === undefined || ringM <= 0) return;
    const box = expandBBox(area.shape.bbox, ringM);
    const entry: RingEntry = { registration, area, ringM, box, cells: this.grid.cellsIn(box) };
    for (const cell of entry.cells) (this.cells[cell] ??= []).push(entry);
    this.byRegistration.set(registration.registrationId, entry);
  }

  remove(registrationId: string): void {
    const entry = this.byRegistration.get(registrationId);
    if (!entry) return;
    this.byRegistration.delete(registrationId);
    for (const cell of entry.cells) {
      const kept = this.cells[cell]!.filter((other) => other !== entry);
      this.cells[cell] = kept.length > 0 ? kept : undefined;
    }
  }

  /** The registrations whose ring (not area) holds the strike and whose lightning filter it passes. */
  match(strike: Strike): readonly RingMatch[] {
    if (this.byRegistration.size === 0) return NONE;
    const cell = this.grid.cellOf(strike.lng, strike.lat);
    const list = cell < 0 ? undefined : this.cells[cell];
    if (!list) return NONE;
    const matches: RingMatch[] = [];
    for (const entry of list) {
      if (!bboxContains(entry.box, strike.lng, strike.lat)) continue;
      if (!lightningPasses(entry.registration.filter.lightning!, strike)) continue;
      const distanceM = entry.area.shape.distanceOutsideM(strike.lng, strike.lat);
      if (distanceM > 0 && distanceM <= entry.ringM) matches.push({ registration: entry.registration, area: entry.area, distanceM });
    }
    return matches;
  }
}
