import { LocalProjection } from './azimuthal-projection.js';
import { LocalScale } from './local-scale.js';
import { pointInMultiPolygon } from './point-in-polygon.js';
import { ringsOf } from './touches.js';
import type { Circle, MultiPolygon, Position } from './types.js';

/** Squared distance from the origin to segment a-b in a plane (metres², for the hot loops of spatial indexes too). */
export function originToSegmentSquared(ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? -(ax * dx + ay * dy) / len2 : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const x = ax + t * dx;
  const y = ay + t * dy;
  return x * x + y * y;
}

/**
 * Metres from `point` to the nearest edge of any ring (holes included), measured in the azimuthal
 * equidistant plane of the point, where the distance to every vertex is its geodesic distance.
 * A flat pre-pass ({@link LocalScale}) finds the edges that can be nearest; only those are projected.
 */
export function distanceToBoundaryM(point: Position, multi: MultiPolygon): number {
  const rings = ringsOf(multi);
  const scale = new LocalScale(point[0], point[1]);
  let flatBest = Infinity;
  for (const ring of rings) {
    for (let i = 1; i < ring.length; i++) {
      const [ax, ay] = scale.project(ring[i - 1]![0], ring[i - 1]![1]);
      const [bx, by] = scale.project(ring[i]![0], ring[i]![1]);
      const d2 = originToSegmentSquared(ax, ay, bx, by);
      if (d2 < flatBest) flatBest = d2;
    }
  }
  if (flatBest === Infinity) return Infinity;
  // Edges whose flat distance is within the scale's tolerance of the flat minimum may be the nearest;
  // twice the point tolerance covers edges, which bend differently in the two planes. The tolerance
  // is taken at twice the flat minimum, which the limit below stays under while it is below 0.3.
  // Where the scale does not hold (tolerance Infinity) every edge is projected.
  const nearest = Math.sqrt(flatBest);
  const tolerance = 2 * scale.tolerance(2 * nearest + 1);
  const screened = tolerance < 0.3;
  const limit = screened ? (nearest * (1 + tolerance)) / (1 - tolerance) + 1 : Infinity;
  const limit2 = limit * limit;
  const projection = new LocalProjection(point[0], point[1]);
  let best = Infinity;
  for (const ring of rings) {
    for (let i = 1; i < ring.length; i++) {
      const a = ring[i - 1]!;
      const b = ring[i]!;
      if (screened) {
        const [fax, fay] = scale.project(a[0], a[1]);
        const [fbx, fby] = scale.project(b[0], b[1]);
        if (originToSegmentSquared(fax, fay, fbx, fby) > limit2) continue;
      }
      const [ax, ay] = projection.forward(a[0], a[1]);
      const [bx, by] = projection.forward(b[0], b[1]);
      const d2 = originToSegmentSquared(ax, ay, bx, by);
      if (d2 < best) best = d2;
    }
  }
  return Math.sqrt(best);
}

/** 0 inside the multipolygon (holes excluded), otherwise the distance in metres to its boundary. */
export function distanceToMultiPolygonM(point: Position, multi: MultiPolygon): number {
  return pointInMultiPolygon(point[0], point[1], multi) ? 0 : distanceToBoundaryM(point, multi);
}

/** Whether the geodesic disc (boundary included) and the multipolygon share a point. */
export function circleTouchesMultiPolygon(circle: Circle, multi: MultiPolygon): boolean {
  return distanceToMultiPolygonM(circle.center, multi) <= circle.radiusM;
}
