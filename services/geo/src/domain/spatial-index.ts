import { bboxesOverlap, bboxOfRings, circleBBox, circleTouchesMultiPolygon, multiPolygonsTouch, type BBox } from '@stormhook/geometry';
import { AREA_LEVELS, type Area, type AreaLevel, type AreaRef, type CountryCode } from './area.js';
import type { QueryShape } from './geometry/query-shape.js';
import { LevelGrid, type Nearest } from './level-grid.js';

export interface SpatialIndexOptions {
  /**
   * How far outside every polygon a point may lie and still take the nearest area, in metres. The
   * boundaries are simplified, so coastal points (a harbour, a beach, a small island) can miss all
   * of them; beyond the limit a point is "nowhere" (open sea, or a neighbouring country). Default 10 km.
   */
  readonly fallbackLimitM?: number;
  /** Grid resolution: cells along the side of an average area's box. Default 12. */
  readonly cellsPerArea?: number;
  /** Per-level cap on grid cells. Default 2,000,000 (8 MB of cell starts). */
  readonly maxCellsPerLevel?: number;
}

export const DEFAULT_FALLBACK_LIMIT_M = 10_000;

/** One level of a resolution; `distanceM` is 0 inside the polygon, else the distance of the fallback. */
export interface ResolvedArea {
  readonly level: AreaLevel;
  readonly id: number;
  readonly name: string;
  readonly distanceM: number;
}

export interface PointResolution {
  readonly country?: CountryCode;
  readonly city?: ResolvedArea;
  readonly district?: ResolvedArea;
  readonly neighbourhood?: ResolvedArea;
}

const NOWHERE: PointResolution = Object.freeze({});
const NO_CHILDREN = new Int32Array(0);

class Level {
  readonly grid: LevelGrid;
  /** Prebuilt hits at distance 0, so that the common case allocates nothing per area. */
  readonly insideHits: ResolvedArea[];
  readonly indexById = new Map<number, number>();
  /** Index of the parent in the level above, -1 for none (or a parent missing from the data). */
  parentIndex: Int32Array;
  /** Indices of the children of area k, in the level below. */
  children: Int32Array[] = [];

  constructor(
    readonly level: AreaLevel,
    readonly areas: readonly Area[],
    options: Required<SpatialIndexOptions>,
  ) {
    this.grid = new LevelGrid(
      areas.map((a) => a.geometry),
      { cellsPerArea: options.cellsPerArea, maxCells: options.maxCellsPerLevel, nearLimitM: options.fallbackLimitM },
    );
    this.insideHits = areas.map((a) => Object.freeze({ level, id: a.id, name: a.name, distanceM: 0 }));
    areas.forEach((a, k) => this.indexById.set(a.id, k));
    this.parentIndex = new Int32Array(areas.length).fill(-1);
  }

  hit(k: number, distanceM = 0): ResolvedArea {
    return distanceM === 0 ? this.insideHits[k]! : { ...this.insideHits[k]!, distanceM };
  }

  bbox(k: number): BBox {
    const b = this.grid.bboxes;
    return { minLng: b[k * 4]!, minLat: b[k * 4 + 1]!, maxLng: b[k * 4 + 2]!, maxLat: b[k * 4 + 3]! };
  }
}

/**
 * Point-to-area resolution and intersection search over every area, held in memory and built once
 * at start (the database holds no geospatial index: FerretDB has none, and a round trip per point
 * would be far too slow). Resolution goes from the finest level up: the neighbourhood or district
 * containing the point names its parents, so the answer is always one consistent chain even where
 * two simplified levels disagree about a border by a few metres.
 */
export class SpatialIndex {
  private readonly levels: Record<AreaLevel, Level>;
  private readonly limitM: number;

  constructor(areas: readonly Area[], options: SpatialIndexOptions = {}) {
    const opts: Required<SpatialIndexOptions> = {
      fallbackLimitM: options.fallbackLimitM ?? DEFAULT_FALLBACK_LIMIT_M,
      cellsPerArea: options.cellsPerArea ?? 12,
      maxCellsPerLevel: options.maxCellsPerLevel ?? 2_000_000,
    };
    this.limitM = opts.fallbackLimitM;
    const byLevel = (level: AreaLevel) => areas.filter((a) => a.level === level);
    this.levels = {
      city: new Level('city', byLevel('city'), opts),
      district: new Level('district', byLevel('district'), opts),
      neighbourhood: new Level('neighbourhood', byLevel('neighbourhood'), opts),
    };
    this.link(this.levels.district, this.levels.city);
    this.link(this.levels.neighbourhood, this.levels.district);
  }

  /** Where a coordinate lies: each level that applies, from the finest containing polygon upwards. */
  resolve(lng: number, lat: number): PointResolution {
    const { city, district, neighbourhood } = this.levels;
    const n = neighbourhood.grid.containing(lng, lat);
    if (n >= 0) return this.chain(n, neighbourhood.parentIndex[n]!, -1);
    const d = district.grid.containing(lng, lat);
    if (d >= 0) return this.chain(-1, d, district.parentIndex[d]!);
    const c = city.grid.containing(lng, lat);
    if (c >= 0) return this.fallbackBelow(lng, lat, { index: c, distanceM: 0 });
    const nearCity = city.grid.nearest(lng, lat, this.limitM);
    return nearCity ? this.fallbackBelow(lng, lat, nearCity) : NOWHERE;
  }

  /** Areas (of one level, or of all) sharing at least one point with the shape, ordered by level then id. */
  intersecting(shape: QueryShape, level?: AreaLevel): AreaRef[] {
    const found: AreaRef[] = [];
    const shapeBox =
      shape.kind === 'polygon' ? bboxOfRings([shape.polygon.exterior]) : circleBBox(shape.circle.center[0], shape.circle.center[1], shape.circle.radiusM);
    for (const current of level ? [level] : AREA_LEVELS) {
      const data = this.levels[current];
      data.areas.forEach((area, k) => {
        if (!bboxesOverlap(shapeBox, data.bbox(k))) return;
        const hit = shape.kind === 'polygon' ? multiPolygonsTouch([shape.polygon], area.geometry) : circleTouchesMultiPolygon(shape.circle, area.geometry);
        if (hit) found.push({ level: current, id: area.id });
      });
    }
    return found.sort((a, b) => AREA_LEVELS.indexOf(a.level) - AREA_LEVELS.indexOf(b.level) || a.id - b.id);
  }

  /** Number of areas per level, for logs and health output. */
  counts(): Record<AreaLevel, number> {
    return { city: this.levels.city.areas.length, district: this.levels.district.areas.length, neighbourhood: this.levels.neighbourhood.areas.length };
  }

  private link(child: Level, parent: Level): void {
    const children: number[][] = parent.areas.map(() => []);
    child.areas.forEach((area, k) => {
      const p = area.parentId === null ? undefined : parent.indexById.get(area.parentId);
      if (p === undefined) return;
      child.parentIndex[k] = p;
      children[p]!.push(k);
    });
    parent.children = children.map((list) => (list.length > 0 ? Int32Array.from(list) : NO_CHILDREN));
  }

  /** Builds the answer upwards from a neighbourhood index n and/or a district index d (each -1 if unknown). */
  private chain(n: number, d: number, c: number): PointResolution {
    const { city, district, neighbourhood } = this.levels;
    if (d >= 0 && c < 0) c = district.parentIndex[d]!;
    if (c < 0) return NOWHERE; // an orphan cannot be placed in a country; the import rejects orphans
    return {
      country: city.areas[c]!.country,
      city: city.hit(c),
      ...(d >= 0 ? { district: district.hit(d) } : {}),
      ...(n >= 0 ? { neighbourhood: neighbourhood.hit(n) } : {}),
    };
  }

  /**
   * The city is known (containing or nearest) but no district polygon holds the point: a coastal
   * point or a sliver between simplified districts. Take the nearest district of THAT city, and
   * likewise the nearest neighbourhood of that district; never cross to another city's districts.
   */
  private fallbackBelow(lng: number, lat: number, c: Nearest): PointResolution {
    const { city, district, neighbourhood } = this.levels;
    const d = district.grid.nearest(lng, lat, this.limitM, city.children[c.index] ?? NO_CHILDREN);
    const n = d ? neighbourhood.grid.nearest(lng, lat, this.limitM, district.children[d.index] ?? NO_CHILDREN) : undefined;
    return {
      country: city.areas[c.index]!.country,
      city: city.hit(c.index, c.distanceM),
      ...(d ? { district: district.hit(d.index, d.distanceM) } : {}),
      ...(n ? { neighbourhood: neighbourhood.hit(n.index, n.distanceM) } : {}),
    };
  }
}
