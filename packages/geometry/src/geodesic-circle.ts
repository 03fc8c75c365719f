import { circleBBox } from './bbox.js';
import { circleTouchesMultiPolygon, originToSegmentSquared } from './boundary-distance.js';
import { inverse } from './geodesic.js';
import { LocalScale } from './local-scale.js';
import { pointInMultiPolygon } from './point-in-polygon.js';
import { ringsOf } from './touches.js';
import type { BBox, Circle, MultiPolygon, Position } from './types.js';

/**
 * A geodesic disc (boundary included) with a fast membership test: the flat {@link LocalScale}
 * decides every point clearly inside or clearly outside, and only points within its tolerance band
 * around the rim (±7 m for 10 km at 40° N, ±3 km for 200 km) are measured on the ellipsoid. The answer is therefore always the geodesic one,
 * the same as the query's crop and every other distance of the platform, at the cost of the flat
 * test nearly everywhere.
 */
export class GeodesicCircle implements Circle {
  readonly bbox: BBox;
  readonly scale: LocalScale;
  /** Squared flat distances below which a point is surely inside, and above which surely outside. */
  readonly innerSquared: number;
  readonly outerSquared: number;
  constructor(
    readonly center: Position,
    readonly radiusM: number,
  ) {
    this.scale = new LocalScale(center[0], center[1]);
    this.bbox = circleBBox(center[0], center[1], radiusM);
    const tolerance = this.scale.tolerance(radiusM);
    if (Number.isFinite(tolerance)) {
      // A millimetre more either way for rounding, which matters only for the smallest circles.
      const inner = radiusM * (1 - tolerance) - 0.001;
      const outer = radiusM * (1 + tolerance) + 0.001;
      this.innerSquared = inner > 0 ? inner * inner : -1;
      this.outerSquared = outer * outer;
    } else {
      // Beyond the range the flat metric was measured for: every point is measured exactly.
      this.innerSquared = -1;
      this.outerSquared = Infinity;
    }
  }

  /**
   * Whether the disc and the multipolygon share a point: the answer of circleTouchesMultiPolygon,
   * decided by the flat metric wherever an edge is clearly inside the rim or every edge clearly
   * outside it, and measured exactly otherwise. An edge's band is twice the scale's error bound at
   * the reach of its farther end, in metres: sampled edges up to 300 km long near the rim erred by at
   * most 0.93 of that bound (a long edge bends away from its flat chord). For hot loops that test one disc against many outlines (a storm moved along
   * its path, minute by minute).
   */
  touchesMultiPolygon(multi: MultiPolygon): boolean {
    if (pointInMultiPolygon(this.center[0], this.center[1], multi)) return true;
    const { lng, lat, kx, ky } = this.scale;
    const r = this.radiusM;
    let unsure = false;
    for (const ring of ringsOf(multi)) {
      let ax = (ring[0]![0] - lng) * kx;
      let ay = (ring[0]![1] - lat) * ky;
      for (let i = 1; i < ring.length; i++) {
        const bx = (ring[i]![0] - lng) * kx;
        const by = (ring[i]![1] - lat) * ky;
        const d = Math.sqrt(originToSegmentSquared(ax, ay, bx, by));
        const reach = Math.sqrt(Math.max(ax * ax + ay * ay, bx * bx + by * by)) + 1;
        const band = 2 * this.scale.tolerance(reach) * reach + 0.001;
        if (!Number.isFinite(band)) unsure = true;
        else if (d <= r - band) return true;
        else if (d <= r + band) unsure = true;
        ax = bx;
        ay = by;
      }
    }
    return unsure && circleTouchesMultiPolygon(this, multi);
  }

  /** Geodesic distance from the centre in metres. */
  distanceM(lng: number, lat: number): number {
    return inverse(this.center[0], this.center[1], lng, lat).distanceM;
  }

  contains(lng: number, lat: number): boolean {
    const d2 = this.scale.distanceSquared(lng, lat);
    if (d2 <= this.innerSquared) return true;
    if (d2 > this.outerSquared) return false;
    return this.distanceM(lng, lat) <= this.radiusM;
  }

  /** The exact test alone, for hot loops that ran the flat screen themselves. */
  containsExactly(lng: number, lat: number): boolean {
    return this.distanceM(lng, lat) <= this.radiusM;
  }
}
