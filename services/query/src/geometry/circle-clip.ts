import { LocalProjection, type Circle, type MultiPolygon, type Polygon, type Position, type Ring } from '@stormhook/geometry';

/**
 * Crops polygons to a geodesic circle (interface.md 4.1).
 *
 * The rings are projected into the azimuthal equidistant plane of the circle's centre, where the
 * geodesic circle is an exact Euclidean circle, and clipped there: each ring is cut into the chains
 * that run inside the circle; the chains are joined by arcs of the circle, always turning
 * counterclockwise from an exit to the next entry (exteriors run counterclockwise and holes
 * clockwise, so the polygon's inside is always on the left). Rings wholly inside are kept as they
 * are, with their ORIGINAL coordinates, so a polygon inside the circle comes back unchanged. New
 * vertices (crossings and arc points) sit a hair inside the circle, so every output vertex lies
 * within the radius despite floating-point rounding.
 */

/** Arc vertices every 1 degree: at 200 km the chord strays at most 8 m from the true circle. */
const ARC_STEP = (2 * Math.PI) / 360;
const TWO_PI = 2 * Math.PI;

interface Vertex {
  x: number;
  y: number;
  /** The original position, for vertices that are not new. */
  original?: Position;
}

interface Chain {
  points: Vertex[];
  entryAngle: number;
  exitAngle: number;
}

function signedArea(points: readonly Vertex[]): number {
  let sum = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) sum += points[j]!.x * points[i]!.y - points[i]!.x * points[j]!.y;
  return sum / 2;
}

function insideRing(x: number, y: number, ring: readonly Vertex[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i]!;
    const b = ring[j]!;
    if (a.y > y !== b.y > y && x < ((b.x - a.x) * (y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

const angleOf = (v: Vertex): number => {
  const a = Math.atan2(v.y, v.x);
  return a < 0 ? a + TWO_PI : a;
};

/** Counterclockwise angular distance from `from` to `to`, in [0, 2π). */
function ccwDistance(from: number, to: number): number {
  const d = to - from;
  return d < 0 ? d + TWO_PI : d;
}

export class CircleClipper {
  private readonly projection: LocalProjection;
  private readonly r: number;
  /** Radius new vertices are placed at: just inside, so rounding never puts them outside. */
  private readonly rInner: number;

  constructor(circle: Circle) {
    this.projection = new LocalProjection(circle.center[0], circle.center[1]);
    this.r = circle.radiusM;
    this.rInner = circle.radiusM - Math.min(0.001, circle.radiusM * 1e-7);
  }

  /** The parts of `polygons` inside the circle; polygons wholly outside disappear. */
  clip(polygons: MultiPolygon): Polygon[] {
    return polygons.flatMap((polygon) => this.clipPolygon(polygon));
  }

  private project(ring: Ring): Vertex[] {
    // Rings arrive closed; work on the open ring.
    const open = ring.length > 1 && ring[0]![0] === ring.at(-1)![0] && ring[0]![1] === ring.at(-1)![1] ? ring.slice(0, -1) : ring;
    return open.map((p) => {
      const [x, y] = this.projection.forward(p[0], p[1]);
      return { x, y, original: p };
    });
  }

  private onCircle(angle: number): Vertex {
    return { x: this.rInner * Math.cos(angle), y: this.rInner * Math.sin(angle) };
  }

  private clipPolygon(polygon: Polygon): Polygon[] {
    const exterior = this.project(polygon.exterior);
    if (exterior.length < 3) return [];
    // Exterior counterclockwise, holes clockwise, in the projected plane (cutting relies on it).
    const rings: Array<{ ring: Vertex[]; hole: boolean; original: Ring }> = [
      { ring: signedArea(exterior) < 0 ? [...exterior].reverse() : exterior, hole: false, original: polygon.exterior },
    ];
    for (const original of polygon.holes) {
      const hole = this.project(original);
      if (hole.length >= 3) rings.push({ ring: signedArea(hole) > 0 ? [...hole].reverse() : hole, hole: true, original });
    }

    const chains: Chain[] = [];
    const wholeInside: Array<{ ring: Vertex[]; hole: boolean; original: Ring }> = [];
    const outsideHoles: Vertex[][] = [];
    let exteriorOutside = false;
    for (const entry of rings) {
      const cut = this.cutRing(entry.ring);
      if (cut === 'inside') wholeInside.push(entry);
      else if (cut === 'outside') {
        if (entry.hole) outsideHoles.push(entry.ring);
        else exteriorOutside = true;
      } else chains.push(...cut);
    }

    const loops: Vertex[][] = chains.length > 0 ? this.stitch(chains) : [];
    if (chains.length === 0 && exteriorOutside) {
      // No ring crosses the circle: it lies wholly inside the polygon's area or wholly outside it.
      const probe = this.onCircle(0);
      const covered = insideRing(probe.x, probe.y, exterior) && !outsideHoles.some((h) => insideRing(probe.x, probe.y, h));
      if (covered) loops.push(this.arc(0, TWO_PI, true));
    }
    // Rings wholly inside keep their original coordinates and order: an inside polygon is unchanged.
    const result: Array<{ outline: Vertex[]; exterior: Ring; holes: Ring[] }> = loops.map((loop) => ({
      outline: loop,
      exterior: this.toPositions(loop),
      holes: [],
    }));
    for (const { ring, hole, original } of wholeInside) {
      if (!hole) result.push({ outline: ring, exterior: original, holes: [] });
    }
    for (const { ring, hole, original } of wholeInside) {
      if (!hole) continue;
      const owner = result.find((p) => insideRing(ring[0]!.x, ring[0]!.y, p.outline));
      owner?.holes.push(original);
    }
    return result.map((p) => ({ exterior: p.exterior, holes: p.holes }));
  }

  /**
   * The chains of `ring` inside the circle, each from an entry crossing to an exit crossing; or
   * 'inside' / 'outside' when the ring never crosses the circle.
   */
  private cutRing(ring: readonly Vertex[]): Chain[] | 'inside' | 'outside' {
    const r2 = this.r * this.r;
    const inside = ring.map((v) => v.x * v.x + v.y * v.y <= r2);
    const start = inside.indexOf(false);
    if (start < 0) return 'inside';
    const n = ring.length;
    const chains: Chain[] = [];
    let current: Vertex[] | undefined;
    let entryAngle = 0;
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      const p = ring[i]!;
      const q = ring[(i + 1) % n]!;
      const pIn = inside[i]!;
      const qIn = inside[(i + 1) % n]!;
      const crossings = this.crossings(p, q, pIn, qIn);
      for (const t of crossings) {
        const point = this.pointAt(p, q, t);
        if (current === undefined) {
          current = [point];
          entryAngle = angleOf(point);
        } else {
          current.push(point);
          chains.push({ points: current, entryAngle, exitAngle: angleOf(point) });
          current = undefined;
        }
      }
      if (qIn && current !== undefined && k < n - 1) current.push(q);
    }
    return chains.length > 0 ? chains : 'outside';
  }

  /** Parameters t in [0, 1] where segment p->q crosses the circle, in order. */
  private crossings(p: Vertex, q: Vertex, pIn: boolean, qIn: boolean): number[] {
    const dx = q.x - p.x;
    const dy = q.y - p.y;
    const a = dx * dx + dy * dy;
    if (a === 0) return [];
    const b = 2 * (p.x * dx + p.y * dy);
    const c = p.x * p.x + p.y * p.y - this.r * this.r;
    const disc = b * b - 4 * a * c;
    if (pIn && qIn) return [];
    const root = Math.sqrt(Math.max(0, disc));
    const t1 = (-b - root) / (2 * a);
    const t2 = (-b + root) / (2 * a);
    const clamp = (t: number) => Math.min(1, Math.max(0, t));
    if (pIn && !qIn) return [clamp(t2)]; // leaving
    if (!pIn && qIn) return [clamp(t1)]; // entering
    // Both ends outside: the segment may pass through the circle (a tangent is not a crossing).
    if (disc <= 0 || t1 >= 1 || t2 <= 0 || t1 < 0 || t2 > 1) return [];
    return [t1, t2];
  }

  /** The crossing on p->q at t, pulled onto the inner radius. */
  private pointAt(p: Vertex, q: Vertex, t: number): Vertex {
    const x = p.x + t * (q.x - p.x);
    const y = p.y + t * (q.y - p.y);
    const d = Math.hypot(x, y);
    return d === 0 ? { x, y } : { x: (x / d) * this.rInner, y: (y / d) * this.rInner };
  }

  /** Points along the circle counterclockwise from angle `from` for `sweep` radians (ends excluded unless `closed`). */
  private arc(from: number, sweep: number, closed = false): Vertex[] {
    const steps = Math.max(1, Math.ceil(sweep / ARC_STEP));
    const points: Vertex[] = [];
    for (let s = closed ? 0 : 1; s < steps; s++) points.push(this.onCircle(from + (sweep * s) / steps));
    return points;
  }

  /** Joins chains into closed loops: after each exit, along the circle counterclockwise to the nearest entry. */
  private stitch(chains: Chain[]): Vertex[][] {
    const used = new Array<boolean>(chains.length).fill(false);
    const loops: Vertex[][] = [];
    for (let first = 0; first < chains.length; first++) {
      if (used[first]) continue;
      const loop: Vertex[] = [];
      let index = first;
      for (let guard = 0; guard <= chains.length; guard++) {
        used[index] = true;
        const chain = chains[index]!;
        loop.push(...chain.points);
        let next = -1;
        let best = Infinity;
        for (let j = 0; j < chains.length; j++) {
          if (used[j] && j !== first) continue;
          const d = ccwDistance(chain.exitAngle, chains[j]!.entryAngle);
          if (d < best) {
            best = d;
            next = j;
          }
        }
        if (next < 0) break;
        loop.push(...this.arc(chain.exitAngle, best));
        if (next === first) break;
        index = next;
      }
      if (loop.length >= 3) loops.push(loop);
    }
    return loops;
  }

  private toPositions(ring: readonly Vertex[]): Position[] {
    const points = ring.map((v): Position => v.original ?? this.projection.backward(v.x, v.y));
    if (points.length > 0) points.push(points[0]!);
    return points;
  }
}

/** `polygons` cropped to `circle` (see {@link CircleClipper}). */
export function cropToCircle(polygons: MultiPolygon, circle: Circle): Polygon[] {
  return new CircleClipper(circle).clip(polygons);
}
