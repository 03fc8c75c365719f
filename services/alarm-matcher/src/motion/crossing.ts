import { pointInMultiPolygon, type BBox, type MultiPolygon, type Position } from '@stormhook/geometry';
import { discCrossing, type Disc } from './circle-crossing.js';
import type { Crossing } from './crossing-span.js';
import type { MovingShape } from './moving-shape.js';

export type { Crossing } from './crossing-span.js';

/** What a crossing test needs of an area: its box and a polygon test (PreparedShape has both). */
export interface Area {
  readonly bbox: BBox;
  intersects(other: MultiPolygon, otherBox: BBox): boolean;
}

function isDisc(area: Area): area is Area & Disc {
  const candidate = area as Partial<Disc>;
  return typeof candidate.radiusM === 'number' && Array.isArray(candidate.center);
}

/** Halvings of a one-minute step at each edge: 1 min / 2^3 = 7.5 s, well inside the motion's own error. */
const REFINE = 3;

/** The times [from, to] at which a box moving linearly overlaps a fixed one, or undefined if never. */
function overlapWindow(moving: MovingShape, area: BBox, fromMin: number, toMin: number): [number, number] | undefined {
  const start = moving.boxAt(0);
  const end = moving.boxAt(1);
  let lo = fromMin;
  let hi = toMin;
  const axes: Array<[number, number, number, number, number]> = [
    [start.minLng, start.maxLng, end.minLng - start.minLng, area.minLng, area.maxLng],
    [start.minLat, start.maxLat, end.minLat - start.minLat, area.minLat, area.maxLat],
  ];
  for (const [min, max, perMin, areaMin, areaMax] of axes) {
    if (perMin === 0) {
      if (max < areaMin || min > areaMax) return undefined;
      continue;
    }
    // min + perMin t <= areaMax and max + perMin t >= areaMin
    const a = (areaMax - min) / perMin;
    const b = (areaMin - max) / perMin;
    lo = Math.max(lo, Math.min(a, b));
    hi = Math.min(hi, Math.max(a, b));
  }
  return lo <= hi ? [lo, hi] : undefined;
}

/** Sample times over [lo, hi]: both ends and the whole minutes between (whole minutes reuse moved polygons). */
function samples(lo: number, hi: number, stepMin: number): number[] {
  const times = [lo];
  for (let t = Math.floor(lo / stepMin) * stepMin + stepMin; t < hi; t += stepMin) if (t > lo) times.push(t);
  if (hi > lo) times.push(hi);
  return times;
}

/** Narrows the edge between `outside` (no contact) and `inside` (contact). */
function refine(touches: (t: number) => boolean, outside: number, inside: number): number {
  for (let i = 0; i < REFINE; i++) {
    const mid = (outside + inside) / 2;
    if (touches(mid)) inside = mid;
    else outside = mid;
  }
  return inside;
}

/**
 * When the moving polygon touches the area between `fromMin` and `toMin`: its first and last contact,
 * sampled every `stepMin` where the boxes overlap and refined to seconds at both edges. Undefined when
 * it never touches. A contact shorter than a step between two samples can be missed; a step of a minute
 * is a few hundred metres of a storm's path.
 */
export function crossing(
  area: Area,
  moving: MovingShape,
  fromMin: number,
  toMin: number,
  stepMin = 1,
  options: { exit: boolean } = { exit: true },
): Crossing | undefined {
  const window = overlapWindow(moving, area.bbox, fromMin, toMin);
  if (!window) return undefined;
  // A point alarm's disc is solved exactly instead of sampled (the common case, and the costly one).
  if (isDisc(area)) return discCrossing(area, moving, fromMin, toMin);
  const touches = (t: number): boolean => {
    const placed = moving.at(t);
    return area.intersects(placed.polygon, placed.box);
  };
  const times = samples(window[0], window[1], stepMin);
  let first = -1;
  for (let i = 0; i < times.length; i++) {
    if (touches(times[i]!)) {
      first = i;
      break;
    }
  }
  if (first < 0) return undefined;
  const entryMin = first === 0 ? times[0]! : refine(touches, times[first - 1]!, times[first]!);
  const touchingAtStart = first === 0 && times[0] === fromMin;
  // Deciding a warning needs only the entry; the exit is looked for when a callback states it.
  if (!options.exit) return { entryMin, exitMin: undefined, touchingAtStart };
  let last = first;
  for (let i = times.length - 1; i > first; i--) {
    if (touches(times[i]!)) {
      last = i;
      break;
    }
  }
  const atEnd = last === times.length - 1 && times[last] === toMin;
  const exitMin = atEnd ? undefined : last === times.length - 1 ? times[last]! : refine(touches, times[last + 1]!, times[last]!);
  return { entryMin, exitMin, touchingAtStart };
}

/**
 * When the moving polygon first covers `point` between `fromMin` and `toMin` (the rain reaching a
 * target's centroid), or undefined. The point is moved backwards instead of the polygon forwards: the
 * same answer without copying the polygon.
 */
export function pointArrival(point: Position, moving: MovingShape, fromMin: number, toMin: number, stepMin = 1): number | undefined {
  const covers = (t: number): boolean => {
    const [lng, lat] = moving.pointAt(point, -t);
    return pointInMultiPolygon(lng, lat, moving.polygon);
  };
  if (covers(fromMin)) return fromMin;
  let previous = fromMin;
  for (const t of samples(fromMin, toMin, stepMin).slice(1)) {
    if (covers(t)) return refine(covers, previous, t);
    previous = t;
  }
  return undefined;
}
