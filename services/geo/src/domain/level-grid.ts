import {
  bboxOfMultiPolygon,
  emptyBBox,
  expandBBox,
  metresPerDegreeLat,
  metresPerDegreeLng,
  originToSegmentSquared,
  ringsOf,
  unionBBox,
  type BBox,
  type MultiPolygon,
} from '@stormhook/geometry';

export interface GridOptions {
  /** Cells along the side of an average area's bounding box; more cells, fewer polygon tests. */
  readonly cellsPerArea: number;
  /** Upper bound on the number of cells, so a level of a few huge areas stays small. */
  readonly maxCells: number;
  /** The farthest a nearest-area search may reach; sizes the grid margin and the "near" mask. */
  readonly nearLimitM: number;
}

export interface Nearest {
  readonly index: number;
  readonly distanceM: number;
}

/** An Int32Array that grows; the build collects entries before it knows how many there are. */
class IntBuffer {
  data = new Int32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
}

/**
 * A uniform grid over the areas of ONE level (their polygons do not overlap). Per cell it lists the
 * areas that cover the cell completely (answered without any polygon test) and those whose boundary
 * crosses it (answered by an even-odd test). The test only reads the area's edges stored for the
 * cell's row, a horizontal band, so it touches a few dozen edges instead of thousands. Everything
 * lives in typed arrays: no per-query allocation and no pointer chasing.
 */
export class LevelGrid {
  readonly size: number;
  readonly bboxes: Float64Array;
  private readonly nearLimitM: number;
  private readonly x0: number;
  private readonly y0: number;
  private readonly cellW: number;
  private readonly cellH: number;
  private readonly nx: number;
  private readonly ny: number;
  /** Entries of cell c are cellEntries[cellStart[c] .. cellStart[c + 1]): ~k = area k covers the cell, k = area k crosses it. */
  private readonly cellStart: Int32Array;
  private readonly cellEntries: Int32Array;
  /** 1 when the cell lies within nearLimitM of some boundary: elsewhere a nearest search is pointless. */
  private readonly near: Uint8Array;
  private readonly rowLo: Int32Array;
  private readonly rowHi: Int32Array;
  /** Edges of area k in row r: edges[4 * rowOffsets[rowBase[k] + r - rowLo[k]] ...], up to the next offset. */
  private readonly rowBase: Int32Array;
  private readonly rowOffsets: Int32Array;
  private readonly edges: Float64Array;

  constructor(geometries: readonly MultiPolygon[], options: GridOptions) {
    const count = geometries.length;
    this.size = count;
    this.nearLimitM = options.nearLimitM;
    this.bboxes = new Float64Array(count * 4);
    const boxes: BBox[] = geometries.map((g) => bboxOfMultiPolygon(g));
    let extent: BBox = emptyBBox();
    let sideSum = 0;
    boxes.forEach((b, k) => {
      this.bboxes.set([b.minLng, b.minLat, b.maxLng, b.maxLat], k * 4);
      extent = unionBBox(extent, b);
      sideSum += Math.sqrt(Math.max(b.maxLng - b.minLng, 1e-9) * Math.max(b.maxLat - b.minLat, 1e-9));
    });
    if (count === 0) extent = { minLng: 0, minLat: 0, maxLng: 0, maxLat: 0 };
    // The margin lets a point just outside the outermost area still find it by a nearest search.
    extent = expandBBox(extent, Math.max(options.nearLimitM, 1));

    // Square cells in metres: a degree of longitude is shorter than one of latitude away from the equator.
    const lngScale = Math.max(0.01, Math.cos((((extent.minLat + extent.maxLat) / 2) * Math.PI) / 180));
    const width = extent.maxLng - extent.minLng;
    const height = extent.maxLat - extent.minLat;
    let cellH = count > 0 ? sideSum / count / options.cellsPerArea : height;
    const cellsFor = (h: number) => Math.ceil(width / (h / lngScale)) * Math.ceil(height / h);
    while (cellsFor(cellH) > options.maxCells) cellH *= 1.25;
    this.cellH = cellH;
    this.cellW = cellH / lngScale;
    this.x0 = extent.minLng;
    this.y0 = extent.minLat;
    this.nx = Math.max(1, Math.ceil(width / this.cellW));
    this.ny = Math.max(1, Math.ceil(height / this.cellH));

    this.rowLo = new Int32Array(count);
    this.rowHi = new Int32Array(count);
    this.rowBase = new Int32Array(count);
    let slots = 0;
    boxes.forEach((b, k) => {
      this.rowLo[k] = this.row(b.minLat);
      this.rowHi[k] = this.row(b.maxLat);
      this.rowBase[k] = slots;
      slots += this.rowHi[k]! - this.rowLo[k]! + 2;
    });
    this.rowOffsets = new Int32Array(slots);
    this.edges = this.bucketEdges(geometries);

    const built = this.classifyCells(geometries);
    this.cellStart = built.cellStart;
    this.cellEntries = built.cellEntries;
    this.near = this.dilate(built.boundary, options.nearLimitM);
  }

  /** Index of the area containing the point, or -1. */
  containing(x: number, y: number): number {
    const ix = Math.floor((x - this.x0) / this.cellW);
    const iy = Math.floor((y - this.y0) / this.cellH);
    // Written so that NaN fails too.
    if (!(ix >= 0 && ix < this.nx && iy >= 0 && iy < this.ny)) return -1;
    const cell = iy * this.nx + ix;
    const end = this.cellStart[cell + 1]!;
    for (let e = this.cellStart[cell]!; e < end; e++) {
      const code = this.cellEntries[e]!;
      if (code < 0) return ~code;
      if (this.inArea(code, iy, x, y)) return code;
    }
    return -1;
  }

  /**
   * The area whose boundary is nearest to the point, within `limitM` metres (capped at the limit
   * the grid was built for, which sized its "near" mask), among `candidates` or all areas. Distances use a local
   * plane with the ellipsoid's scales at the point's latitude: within 0.1 % of the geodesic below 50 km.
   */
  nearest(x: number, y: number, requestedLimitM: number, candidates?: ArrayLike<number>): Nearest | undefined {
    const limitM = Math.min(requestedLimitM, this.nearLimitM);
    const ix = Math.floor((x - this.x0) / this.cellW);
    const iy = Math.floor((y - this.y0) / this.cellH);
    if (!(ix >= 0 && ix < this.nx && iy >= 0 && iy < this.ny) || !(limitM > 0)) return undefined;
    if (this.near[iy * this.nx + ix] === 0) return undefined;
    const kx = metresPerDegreeLng(y);
    const ky = metresPerDegreeLat(y);
    const dx = limitM / kx;
    const dy = limitM / ky;
    const rowFrom = Math.max(0, this.row(y - dy));
    const rowTo = Math.min(this.ny - 1, this.row(y + dy));
    let best = limitM;
    let bestIndex = -1;
    const n = candidates ? candidates.length : this.size;
    for (let c = 0; c < n; c++) {
      const k = candidates ? candidates[c]! : c;
      const b = k * 4;
      if (x < this.bboxes[b]! - dx || x > this.bboxes[b + 2]! + dx || y < this.bboxes[b + 1]! - dy || y > this.bboxes[b + 3]! + dy) continue;
      const lo = Math.max(rowFrom, this.rowLo[k]!);
      const hi = Math.min(rowTo, this.rowHi[k]!);
      for (let r = lo; r <= hi; r++) {
        const slot = this.rowBase[k]! + r - this.rowLo[k]!;
        const end = this.rowOffsets[slot + 1]! * 4;
        for (let i = this.rowOffsets[slot]! * 4; i < end; i += 4) {
          // An edge whose both ends lie beyond `best` on the same side cannot be nearer.
          const ay = (this.edges[i + 1]! - y) * ky;
          const by = (this.edges[i + 3]! - y) * ky;
          if ((ay > best && by > best) || (ay < -best && by < -best)) continue;
          const ax = (this.edges[i]! - x) * kx;
          const bx = (this.edges[i + 2]! - x) * kx;
          if ((ax > best && bx > best) || (ax < -best && bx < -best)) continue;
          const d = Math.sqrt(originToSegmentSquared(ax, ay, bx, by));
          if (d < best) {
            best = d;
            bestIndex = k;
          }
        }
      }
    }
    return bestIndex >= 0 ? { index: bestIndex, distanceM: best } : undefined;
  }

  private row(y: number): number {
    return Math.min(this.ny - 1, Math.max(0, Math.floor((y - this.y0) / this.cellH)));
  }

  private inArea(k: number, iy: number, x: number, y: number): boolean {
    const slot = this.rowBase[k]! + iy - this.rowLo[k]!;
    const end = this.rowOffsets[slot + 1]! * 4;
    const edges = this.edges;
    let inside = false;
    for (let i = this.rowOffsets[slot]! * 4; i < end; i += 4) {
      const x1 = edges[i]!;
      const y1 = edges[i + 1]!;
      const x2 = edges[i + 2]!;
      const y2 = edges[i + 3]!;
      if (y1 > y !== y2 > y && x < ((x2 - x1) * (y - y1)) / (y2 - y1) + x1) inside = !inside;
    }
    return inside;
  }

  private forEachEdge(geometry: MultiPolygon, visit: (x1: number, y1: number, x2: number, y2: number) => void): void {
    for (const ring of ringsOf(geometry)) {
      for (let i = 1; i < ring.length; i++) {
        const a = ring[i - 1]!;
        const b = ring[i]!;
        if (a[0] !== b[0] || a[1] !== b[1]) visit(a[0], a[1], b[0], b[1]);
      }
    }
  }

  /** Two passes over every edge: count per (area, row), then fill; an edge goes into each row it spans. */
  private bucketEdges(geometries: readonly MultiPolygon[]): Float64Array {
    const counts = new Int32Array(this.rowOffsets.length);
    geometries.forEach((g, k) => {
      const base = this.rowBase[k]! - this.rowLo[k]!;
      this.forEachEdge(g, (_x1, y1, _x2, y2) => {
        for (let r = this.row(Math.min(y1, y2)), hi = this.row(Math.max(y1, y2)); r <= hi; r++) counts[base + r]!++;
      });
    });
    let total = 0;
    geometries.forEach((_g, k) => {
      const rows = this.rowHi[k]! - this.rowLo[k]! + 1;
      for (let s = this.rowBase[k]!; s <= this.rowBase[k]! + rows; s++) {
        this.rowOffsets[s] = total;
        total += counts[s]!;
      }
    });
    const edges = new Float64Array(total * 4);
    const fill = Int32Array.from(this.rowOffsets);
    geometries.forEach((g, k) => {
      const base = this.rowBase[k]! - this.rowLo[k]!;
      this.forEachEdge(g, (x1, y1, x2, y2) => {
        for (let r = this.row(Math.min(y1, y2)), hi = this.row(Math.max(y1, y2)); r <= hi; r++) {
          const at = fill[base + r]!++ * 4;
          edges[at] = x1;
          edges[at + 1] = y1;
          edges[at + 2] = x2;
          edges[at + 3] = y2;
        }
      });
    });
    return edges;
  }

  /**
   * Marks the cells each boundary passes through (clipping the edge to each row band, slightly widened
   * against rounding), then classifies the other cells of the area's box by a test of their centre:
   * a cell no edge of the area touches is wholly inside or wholly outside it.
   */
  private classifyCells(geometries: readonly MultiPolygon[]) {
    const cells = this.nx * this.ny;
    const stamp = new Int32Array(cells).fill(-1);
    const boundary = new Uint8Array(cells);
    const entryCell = new IntBuffer();
    const entryCode = new IntBuffer();
    const eps = 1e-9;
    geometries.forEach((g, k) => {
      this.forEachEdge(g, (x1, y1, x2, y2) => {
        const minY = Math.min(y1, y2);
        const maxY = Math.max(y1, y2);
        for (let r = this.row(minY - eps), hi = this.row(maxY + eps); r <= hi; r++) {
          let xa = Math.min(x1, x2);
          let xb = Math.max(x1, x2);
          if (y1 !== y2) {
            const ya = Math.max(minY, this.y0 + r * this.cellH);
            const yb = Math.min(maxY, this.y0 + (r + 1) * this.cellH);
            const xAt = (yy: number) => x1 + ((x2 - x1) * (yy - y1)) / (y2 - y1);
            xa = Math.min(xAt(ya), xAt(yb));
            xb = Math.max(xAt(ya), xAt(yb));
          }
          const c0 = Math.max(0, Math.floor((xa - eps - this.x0) / this.cellW));
          const c1 = Math.min(this.nx - 1, Math.floor((xb + eps - this.x0) / this.cellW));
          for (let c = c0; c <= c1; c++) {
            stamp[r * this.nx + c] = k;
            boundary[r * this.nx + c] = 1;
          }
        }
      });
      const b = k * 4;
      const cFrom = Math.max(0, Math.floor((this.bboxes[b]! - this.x0) / this.cellW));
      const cTo = Math.min(this.nx - 1, Math.floor((this.bboxes[b + 2]! - this.x0) / this.cellW));
      for (let r = this.rowLo[k]!; r <= this.rowHi[k]!; r++) {
        for (let c = cFrom; c <= cTo; c++) {
          const cell = r * this.nx + c;
          if (stamp[cell] === k) {
            entryCell.push(cell);
            entryCode.push(k);
          } else if (this.inArea(k, r, this.x0 + (c + 0.5) * this.cellW, this.y0 + (r + 0.5) * this.cellH)) {
            entryCell.push(cell);
            entryCode.push(~k);
          }
        }
      }
    });

    // Counting sort by cell; "covers the cell" entries first, since they answer without a test.
    const cellStart = new Int32Array(cells + 1);
    for (let i = 0; i < entryCell.length; i++) cellStart[entryCell.data[i]! + 1]!++;
    for (let c = 0; c < cells; c++) cellStart[c + 1]! += cellStart[c]!;
    const cellEntries = new Int32Array(entryCell.length);
    const fill = cellStart.slice(0, cells);
    for (const wantFull of [true, false]) {
      for (let i = 0; i < entryCell.length; i++) {
        const code = entryCode.data[i]!;
        if (code < 0 === wantFull) cellEntries[fill[entryCell.data[i]!]!++] = code;
      }
    }
    return { cellStart, cellEntries, boundary };
  }

  /** Grows the boundary cells by the search limit (separable box dilation with prefix sums). */
  private dilate(boundary: Uint8Array, limitM: number): Uint8Array {
    const { nx, ny } = this;
    if (!(limitM > 0)) return new Uint8Array(nx * ny);
    const poleward = Math.min(89, Math.max(Math.abs(this.y0), Math.abs(this.y0 + ny * this.cellH)));
    const kx = Math.ceil(limitM / metresPerDegreeLng(poleward) / this.cellW);
    // A degree of latitude is shortest at the equator: the reach never falls short.
    const ky = Math.ceil(limitM / metresPerDegreeLat(0) / this.cellH);
    const pass = (src: Uint8Array, len: number, lines: number, at: (line: number, i: number) => number, reach: number) => {
      const out = new Uint8Array(nx * ny);
      const prefix = new Int32Array(len + 1);
      for (let line = 0; line < lines; line++) {
        for (let i = 0; i < len; i++) prefix[i + 1] = prefix[i]! + src[at(line, i)]!;
        for (let i = 0; i < len; i++) {
          if (prefix[Math.min(len, i + reach + 1)]! - prefix[Math.max(0, i - reach)]! > 0) out[at(line, i)] = 1;
        }
      }
      return out;
    };
    const horizontal = pass(boundary, nx, ny, (row, i) => row * nx + i, kx);
    return pass(horizontal, ny, nx, (col, i) => i * nx + col, ky);
  }
}
