import {
  bboxContains,
  bboxesOverlap,
  bboxOfMultiPolygon,
  centroidOf,
  distanceToBoundaryM,
  pointInMultiPolygon,
  segmentsIntersect,
  type BBox,
  type MultiPolygon,
  type Position,
} from '@stormhook/geometry';
import type { Grid } from './grid.js';
import type { CellCover, PreparedShape } from './prepared-shape.js';

/**
 * An administrative area's boundary with its edges filed by grid row. A point-in-polygon test
 * casts its ray along the point's row only, so it looks at the few edges crossing that row band
 * instead of every vertex of a province (thousands).
 */
export class PreparedPolygon implements PreparedShape {
  readonly bbox: BBox;
  readonly reference: Position;
  private readonly firstRow: number;
  /** Per row band: edges as x1, y1, x2, y2 quadruples. */
  private readonly rowEdges: Float64Array[];
  private readonly edgeCount: number;

  constructor(
    readonly geometry: MultiPolygon,
    private readonly grid: Grid,
  ) {
    this.bbox = bboxOfMultiPolygon(geometry);
    this.reference = centroidOf(geometry);
    this.firstRow = Math.floor((this.bbox.minLat - grid.minLat) / grid.cellDeg);
    const lastRow = Math.floor((this.bbox.maxLat - grid.minLat) / grid.cellDeg);
    const buckets: number[][] = Array.from({ length: Math.max(0, lastRow - this.firstRow + 1) }, () => []);
    let edges = 0;
    for (const part of geometry) {
      for (const ring of [part.exterior, ...part.holes]) {
        for (let i = 1; i < ring.length; i++) {
          const [x1, y1] = ring[i - 1]!;
          const [x2, y2] = ring[i]!;
          if (x1 === x2 && y1 === y2) continue;
          edges++;
          const from = Math.floor((Math.min(y1, y2) - grid.minLat) / grid.cellDeg) - this.firstRow;
          const to = Math.floor((Math.max(y1, y2) - grid.minLat) / grid.cellDeg) - this.firstRow;
          for (let r = from; r <= to; r++) buckets[r]!.push(x1, y1, x2, y2);
        }
      }
    }
    this.edgeCount = edges;
    this.rowEdges = buckets.map((bucket) => Float64Array.from(bucket));
  }

  get edges(): number {
    return this.edgeCount;
  }

  private edgesOfRow(lat: number): Float64Array | undefined {
    return this.rowEdges[Math.floor((lat - this.grid.minLat) / this.grid.cellDeg) - this.firstRow];
  }

  distanceOutsideM(lng: number, lat: number): number {
    return this.contains(lng, lat) ? 0 : distanceToBoundaryM([lng, lat], this.geometry);
  }

  contains(lng: number, lat: number): boolean {
    if (!bboxContains(this.bbox, lng, lat)) return false;
    const edges = this.edgesOfRow(lat);
    if (!edges) return false;
    // Even-odd over every ring at once: holes and separate parts come out right without knowing which ring an edge is from.
    let inside = false;
    for (let i = 0; i < edges.length; i += 4) {
      const x1 = edges[i]!;
      const y1 = edges[i + 1]!;
      const x2 = edges[i + 2]!;
      const y2 = edges[i + 3]!;
      if (y1 > lat !== y2 > lat && lng < ((x2 - x1) * (lat - y1)) / (y2 - y1) + x1) inside = !inside;
    }
    return inside;
  }

  intersects(other: MultiPolygon, otherBox: BBox): boolean {
    if (!bboxesOverlap(this.bbox, otherBox)) return false;
    // A vertex of the other shape inside this one.
    for (const part of other) {
      for (const ring of [part.exterior, ...part.holes]) {
        for (const [x, y] of ring) if (this.contains(x, y)) return true;
      }
    }
    const otherEdges: number[] = [];
    for (const part of other) {
      for (const ring of [part.exterior, ...part.holes]) {
        for (let i = 1; i < ring.length; i++) otherEdges.push(ring[i - 1]![0], ring[i - 1]![1], ring[i]![0], ring[i]![1]);
      }
    }
    const r0 = Math.max(0, Math.floor((otherBox.minLat - this.grid.minLat) / this.grid.cellDeg) - this.firstRow);
    const r1 = Math.min(this.rowEdges.length - 1, Math.floor((otherBox.maxLat - this.grid.minLat) / this.grid.cellDeg) - this.firstRow);
    for (let r = r0; r <= r1; r++) {
      const edges = this.rowEdges[r]!;
      for (let i = 0; i < edges.length; i += 4) {
        const x1 = edges[i]!;
        const y1 = edges[i + 1]!;
        const x2 = edges[i + 2]!;
        const y2 = edges[i + 3]!;
        if (Math.max(x1, x2) < otherBox.minLng || Math.min(x1, x2) > otherBox.maxLng) continue;
        if (Math.max(y1, y2) < otherBox.minLat || Math.min(y1, y2) > otherBox.maxLat) continue;
        // A vertex of this shape inside the other one.
        if (bboxContains(otherBox, x1, y1) && pointInMultiPolygon(x1, y1, other)) return true;
        for (let j = 0; j < otherEdges.length; j += 4) {
          if (segmentsIntersect(x1, y1, x2, y2, otherEdges[j]!, otherEdges[j + 1]!, otherEdges[j + 2]!, otherEdges[j + 3]!)) return true;
        }
      }
    }
    return false;
  }

  cover(grid: Grid): CellCover {
    const boundary = new Set<number>();
    for (const edges of this.rowEdges) {
      for (let i = 0; i < edges.length; i += 4) {
        const c0 = grid.col(Math.min(edges[i]!, edges[i + 2]!));
        const c1 = grid.col(Math.max(edges[i]!, edges[i + 2]!));
        const r0 = grid.row(Math.min(edges[i + 1]!, edges[i + 3]!));
        const r1 = grid.row(Math.max(edges[i + 1]!, edges[i + 3]!));
        for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) boundary.add(grid.cell(r, c));
      }
    }
    const full: number[] = [];
    for (const cell of grid.cellsIn(this.bbox)) {
      if (boundary.has(cell)) continue;
      // No edge passes through this cell, so it is entirely inside or entirely outside: its centre decides.
      const box = grid.bounds(cell);
      if (this.contains((box.minLng + box.maxLng) / 2, (box.minLat + box.maxLat) / 2)) full.push(cell);
    }
    return { full, partial: [...boundary] };
  }
}
