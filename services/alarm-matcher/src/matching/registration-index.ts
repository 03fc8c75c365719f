import type { BBox } from '@stormhook/geometry';
import type { RealtimeRegistration } from '../domain/registration.js';
import { Grid } from '../geometry/grid.js';
import { PreparedCircle } from '../geometry/prepared-circle.js';
import { ApproachRings, type RingMatch } from './approach-ring.js';
import { AreaEntry, compiledPasses, strikeKey, type Match, type StormMatch, type WatchedArea } from './area-entry.js';
import { CIRCLE_FILTER, CIRCLE_STRIDE, GridLayer, NO_LIGHTNING, SEVERAL } from './grid-layer.js';
import { precipitationPasses, thunderstormPasses } from './rules.js';
import type { Rain, Storm, Strike } from '../domain/weather-events.js';

export type { AreaEntry, Match, StormMatch, WatchedArea } from './area-entry.js';
export type { RingMatch } from './approach-ring.js';

/**
 * Every geometry and point registration of the platform in memory, filed by area on uniform grids.
 * Registrations sharing an area share one geometry test; each weather kind only visits areas some
 * registration watches for it. Circles sit on a 0.1° grid; administrative polygons on a 0.025° grid,
 * so that few strikes land in a cell an area boundary crosses (the only place a point-in-polygon
 * test is needed). Not thread-safe by design: one per process, mutated by the registration
 * broadcast and read by the weather consumer on the same event loop.
 */
export class RegistrationIndex {
  private readonly areas = new Map<string, AreaEntry>();
  private readonly byRegistration = new Map<string, { registration: RealtimeRegistration; area: AreaEntry }>();
  private readonly circles: GridLayer;
  private readonly polygons: GridLayer;
  private readonly rings: ApproachRings;
  private stampCounter = 0;

  constructor(readonly grid: Grid = new Grid()) {
    this.circles = new GridLayer(grid);
    this.polygons = new GridLayer(new Grid(grid.minLng, grid.minLat, grid.maxLng, grid.maxLat, grid.cellDeg / 4));
    this.rings = new ApproachRings(grid);
  }

  get size(): number {
    return this.byRegistration.size;
  }

  get areaCount(): number {
    return this.areas.size;
  }

  get(registrationId: string): RealtimeRegistration | undefined {
    return this.byRegistration.get(registrationId)?.registration;
  }

  /** The area a registration watches. */
  areaOf(registrationId: string): WatchedArea | undefined {
    return this.byRegistration.get(registrationId)?.area;
  }

  ids(): IterableIterator<string> {
    return this.byRegistration.keys();
  }

  private layerOf(area: WatchedArea): GridLayer {
    return area.shape instanceof PreparedCircle ? this.circles : this.polygons;
  }

  /** Adds or replaces a registration; `area` is the shape it watches (shared by key). */
  upsert(registration: RealtimeRegistration, area: WatchedArea): void {
    this.remove(registration.registrationId);
    let entry = this.areas.get(area.key);
    if (!entry) {
      const layer = this.layerOf(area);
      const cover = area.shape.cover(layer.grid);
      entry = new AreaEntry(area.key, area.shape, [...cover.full, ...cover.partial], cover.partial);
      layer.add(entry);
      this.areas.set(area.key, entry);
    }
    entry.registrations.set(registration.registrationId, registration);
    this.byRegistration.set(registration.registrationId, { registration, area: entry });
    this.rings.upsert(registration, entry);
    entry.refresh();
    this.layerOf(entry).touched(entry);
  }

  remove(registrationId: string): boolean {
    const held = this.byRegistration.get(registrationId);
    if (!held) return false;
    this.byRegistration.delete(registrationId);
    this.rings.remove(registrationId);
    const entry = held.area;
    entry.registrations.delete(registrationId);
    if (entry.registrations.size === 0) {
      this.areas.delete(entry.key);
      this.layerOf(entry).remove(entry);
    } else {
      entry.refresh();
      this.layerOf(entry).touched(entry);
    }
    return true;
  }

  /** Registrations whose area contains the strike and whose lightning filter it passes. The hot path. */
  matchLightning(strike: Strike): Match[] {
    const matches: Match[] = [];
    const { lng, lat } = strike;
    const circleCell = this.circles.grid.cellOf(lng, lat);
    if (circleCell < 0) return matches;
    const key = strikeKey(strike);
    const fullCircles = this.circles.fullAt(circleCell);
    if (fullCircles) for (const entry of fullCircles) entry.collectLightning(key, matches);
    const packed = this.circles.packedCirclesAt(circleCell);
    if (packed) {
      const partialCircles = this.circles.partialAt(circleCell)!;
      for (let i = 0, j = 0; i < partialCircles.length; i++, j += CIRCLE_STRIDE) {
        // GeodesicCircle.contains, inlined over the packed screen: the flat distance decides unless it
        // falls in the tolerance band around the rim, where the geodesic one does.
        const dx = (lng - packed[j]!) * packed[j + 2]!;
        const dy = (lat - packed[j + 1]!) * packed[j + 3]!;
        const squared = dx * dx + dy * dy;
        if (squared > packed[j + 5]!) continue;
        const type = packed[j + CIRCLE_FILTER]!;
        if (type === NO_LIGHTNING) continue;
        if (squared > packed[j + 4]! && !(partialCircles[i]!.shape as PreparedCircle).disc.containsExactly(lng, lat)) continue;
        if (type === SEVERAL) partialCircles[i]!.collectLightning(key, matches);
        else if (compiledPasses(packed, j + CIRCLE_FILTER, key)) matches.push(partialCircles[i]!.lightningMatches[0]!);
      }
    }
    const polygonCell = this.polygons.grid.cellOf(lng, lat);
    const fullPolygons = this.polygons.fullAt(polygonCell);
    if (fullPolygons) for (const entry of fullPolygons) entry.collectLightning(key, matches);
    const partialPolygons = this.polygons.partialAt(polygonCell);
    if (partialPolygons) {
      for (const entry of partialPolygons) {
        if (entry.lightning.length > 0 && entry.shape.contains(lng, lat)) entry.collectLightning(key, matches);
      }
    }
    return matches;
  }

  /** Registrations whose lightning approach ring (beyond their area) holds the strike and whose filter it passes. */
  matchLightningRing(strike: Strike): readonly RingMatch[] {
    return this.rings.match(strike);
  }

  /**
   * The areas near a storm's or rain area's projected path (its swept box) where some registration
   * asked for a warning stage before arrival: the ones a prediction may have to warn.
   */
  approachCandidates(path: BBox, kind: 'thunderstorm' | 'precipitation'): AreaEntry[] {
    return this.candidates([path], kind === 'thunderstorm' ? 'thunderstormApproach' : 'precipitationApproach');
  }

  /** The areas near the boxes, each once, that some registration watches for `kind`. */
  private candidates(boxes: readonly BBox[], kind: 'thunderstorm' | 'precipitation' | 'thunderstormApproach' | 'precipitationApproach'): AreaEntry[] {
    const stamp = ++this.stampCounter;
    const found: AreaEntry[] = [];
    for (const box of boxes) {
      if (!Number.isFinite(box.minLng)) continue;
      for (const layer of [this.circles, this.polygons]) {
        for (const entry of layer.within(box)) {
          if (entry.stamp === stamp || entry[kind].length === 0) continue;
          entry.stamp = stamp;
          found.push(entry);
        }
      }
    }
    return found;
  }

  /** Registrations whose area a watched polygon of the storm touches and whose filter the storm passes. */
  matchThunderstorm(storm: Storm): StormMatch[] {
    const matches: StormMatch[] = [];
    for (const entry of this.candidates([storm.cell.box, storm.threatBox], 'thunderstorm')) {
      // Each polygon is tested against the area once, and only when a registration could use it.
      let cell: boolean | undefined;
      let threat: boolean | undefined;
      for (const registration of entry.thunderstorm) {
        const filter = registration.filter.thunderstorm!;
        const watchCell = filter.intersectsCellPolygon ?? filter.intersectsAffectedPolygon === undefined;
        const watchThreat = filter.intersectsAffectedPolygon ?? filter.intersectsCellPolygon === undefined;
        if (watchCell && cell === undefined) cell = storm.cell.polygon.length > 0 && entry.shape.intersects(storm.cell.polygon, storm.cell.box);
        if (watchThreat && threat === undefined) threat = storm.threat.length > 0 && entry.shape.intersects(storm.threat, storm.threatBox);
        const hits = { cell: cell ?? false, threat: threat ?? false };
        if (thunderstormPasses(filter, storm, hits)) matches.push({ registration, area: entry, hits });
      }
    }
    return matches;
  }

  /** Registrations whose area the precipitation geometry touches and whose intensity list holds it. */
  matchPrecipitation(rain: Rain): Match[] {
    const matches: Match[] = [];
    for (const entry of this.candidates([rain.box], 'precipitation')) {
      const passing = entry.precipitation.filter((registration) => precipitationPasses(registration.filter.precipitation!, rain));
      if (passing.length === 0 || !entry.shape.intersects(rain.geometry, rain.box)) continue;
      for (const registration of passing) matches.push({ registration, area: entry });
    }
    return matches;
  }
}
