import type { ByteReader, ByteWriter } from './byte-io.js';

/**
 * Doubles that are decimals with few digits (a coordinate of 5 decimals, a current in whole amperes)
 * kept as integers at one scale for the whole column, optionally as the difference from the previous
 * value: 2 or 3 bytes where the double takes 8. A value the scale does not give back bit for bit
 * (more digits, -0, NaN) is kept as its 8 bytes instead. Each integer carries one bit saying which.
 */
const POWERS = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000];
const MAX_SCALE = POWERS.length - 1;
const LIMIT = 2 ** 50;

/** The fewest decimals that give `v` back exactly, or -1. */
function decimalsOf(v: number): number {
  if (Object.is(v, -0) || !Number.isFinite(v)) return -1;
  for (let k = 0; k <= MAX_SCALE; k++) {
    const p = POWERS[k]!;
    const n = Math.round(v * p);
    if (Math.abs(n) < LIMIT && n / p === v) return k;
  }
  return -1;
}

/** The scale of a column: enough decimals for every value that has few. */
export function columnScale(values: Iterable<number>): number {
  let scale = 0;
  for (const v of values) scale = Math.max(scale, decimalsOf(v));
  return scale;
}

export class DecimalEncoder {
  private prev = 0;
  private readonly p: number;

  constructor(
    readonly scale: number,
    private readonly delta: boolean,
    private readonly ints: ByteWriter,
    private readonly doubles: ByteWriter,
  ) {
    this.p = POWERS[scale]!;
  }

  write(v: number): void {
    const n = Math.round(v * this.p);
    if (!Object.is(v, -0) && Math.abs(n) < LIMIT && n / this.p === v) {
      const d = this.delta ? n - this.prev : n;
      this.prev = n;
      this.ints.uint(2 * (d < 0 ? -2 * d - 1 : 2 * d));
    } else {
      this.ints.uint(1);
      this.doubles.double(v);
    }
  }
}

export class DecimalDecoder {
  private prev = 0;
  private readonly p: number;

  constructor(
    scale: number,
    private readonly delta: boolean,
    private readonly ints: ByteReader,
    private readonly doubles: ByteReader,
  ) {
    if (!Number.isInteger(scale) || scale < 0 || scale > MAX_SCALE) throw new RangeError(`bad decimal scale ${scale}`);
    this.p = POWERS[scale]!;
  }

  read(): number {
    const x = this.ints.uint();
    if (x % 2 === 1) return this.doubles.double();
    const z = x / 2;
    const d = z % 2 === 1 ? -(z + 1) / 2 : z / 2;
    const n = this.delta ? this.prev + d : d;
    this.prev = n;
    return n / this.p;
  }
}
