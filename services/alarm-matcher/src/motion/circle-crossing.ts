import { metresPerDegreeLat, metresPerDegreeLng, pointInMultiPolygon, ringsOf, type Position } from '@stormhook/geometry';
import type { Crossing } from './crossing-span.js';
import type { MovingShape } from './moving-shape.js';

/** A point alarm's disc, as the crossing needs it. */
export interface Disc {
  readonly center: Position;
  readonly radiusM: number;
}

/** Widens [lo, hi] (held in `span`) by the times a point moving from the origin at d·t is within r of (cx, cy). */
function widenByDisc(span: number[], dx: number, dy: number, cx: number, cy: number, r: number): void {
  // |d t - c|² = r²
  const A = dx * dx + dy * dy;
  const B = -2 * (cx * dx + cy * dy);
  const C = cx * cx + cy * cy - r * r;
  if (A === 0) {
    if (C <= 0) {
      span[0] = -Infinity;
      span[1] = Infinity;
    }
    return;
  }
  const discriminant = B * B - 4 * A * C;
  if (discriminant < 0) return;
  const root = Math.sqrt(discriminant);
  span[0] = Math.min(span[0]!, (-B - root) / (2 * A));
  span[1] = Math.max(span[1]!, (-B + root) / (2 * A));
}

/** The [from, to] times at which value0 + rate·t lies in [min, max]; from > to when never. */
function within(value0: number, rate: number, min: number, max: number, out: number[], at: number): void {
  if (rate === 0) {
    const inside = value0 >= min && value0 <= max;
    out[at] = inside ? -Infinity : Infinity;
    out[at + 1] = inside ? Infinity : -Infinity;
    return;
  }
  const t1 = (min - value0) / rate;
  const t2 = (max - value0) / rate;
  out[at] = Math.min(t1, t2);
  out[at + 1] = Math.max(t1, t2);
}

const scratch = [0, 0, 0, 0];

/**
 * Widens `span` by the times t (minutes) at which the point d·t lies within `r` of the segment a-b: one
 * interval (a capsule is convex). Most edges of a polygon lie wholly more than r to one side of the
 * point's line and are passed over with two cross products.
 */
function widenByCapsule(span: number[], dx: number, dy: number, speed: number, ax: number, ay: number, bx: number, by: number, r: number): void {
  if (speed > 0) {
    // Signed distances of the ends from the line through the origin along d.
    const sa = (dx * ay - dy * ax) / speed;
    const sb = (dx * by - dy * bx) / speed;
    if ((sa > r && sb > r) || (sa < -r && sb < -r)) return;
  }
  widenByDisc(span, dx, dy, ax, ay, r);
  widenByDisc(span, dx, dy, bx, by, r);
  const ex = bx - ax;
  const ey = by - ay;
  const len = Math.hypot(ex, ey);
  if (len === 0) return;
  const ux = ex / len;
  const uy = ey / len;
  // Along the segment (0..len) and across it (-r..r), both linear in t.
  within(-ax * ux - ay * uy, dx * ux + dy * uy, 0, len, scratch, 0);
  within(ax * uy - ay * ux, -dx * uy + dy * ux, -r, r, scratch, 2);
  const from = Math.max(scratch[0]!, scratch[2]!);
  const to = Math.min(scratch[1]!, scratch[3]!);
  if (from <= to) {
    span[0] = Math.min(span[0]!, from);
    span[1] = Math.max(span[1]!, to);
  }
}

/**
 * When a polygon moving at constant velocity touches a disc, solved rather than sampled: relative to
 * the polygon the disc's centre moves in a straight line, and it is within the radius of the polygon
 * exactly while it is inside one of the capsules around its edges (or inside the polygon, which it can
 * only enter and leave through them). Entry is the earliest capsule entry, exit the latest capsule
 * exit. Computed in the flat metric around the disc's centre (LocalScale's degree lengths): over the
 * ≤ 150 km of an hour's path its error is tens of metres, far below the motion's own; the matcher's
 * geodesic test still decides whether the storm touches the area now.
 */
export function discCrossing(disc: Disc, moving: MovingShape, fromMin: number, toMin: number): Crossing | undefined {
  const [cLng, cLat] = disc.center;
  const kx = metresPerDegreeLng(cLat);
  const ky = metresPerDegreeLat(cLat);
  // The polygon at time 0 in metres around the centre; the centre, relative to the polygon, moves by -v.
  const dx = -moving.lngPerMin * kx;
  const dy = -moving.latPerMin * ky;
  const speed = Math.hypot(dx, dy);
  const span = [Infinity, -Infinity];
  for (const ring of ringsOf(moving.polygon)) {
    let ax = (ring[0]![0] - cLng) * kx;
    let ay = (ring[0]![1] - cLat) * ky;
    for (let i = 1; i < ring.length; i++) {
      const bx = (ring[i]![0] - cLng) * kx;
      const by = (ring[i]![1] - cLat) * ky;
      widenByCapsule(span, dx, dy, speed, ax, ay, bx, by, disc.radiusM);
      ax = bx;
      ay = by;
    }
  }
  let entry = span[0]!;
  let exit = span[1]!;
  const startCentre = moving.pointAt(disc.center, -fromMin);
  const insideAtStart = pointInMultiPolygon(startCentre[0], startCentre[1], moving.polygon);
  if (insideAtStart) {
    entry = Math.min(entry, fromMin);
    exit = Math.max(exit, fromMin);
  }
  if (!(entry <= exit) || exit < fromMin || entry > toMin) return undefined;
  const touchingAtStart = entry <= fromMin;
  return { entryMin: Math.max(entry, fromMin), exitMin: exit >= toMin ? undefined : exit, touchingAtStart };
}
