/**
 * Growable byte buffer and its reader, with the varints the history's packed blocks are made of.
 * Values up to 2^53 (epoch milliseconds, scaled coordinates) are written with arithmetic rather than
 * 32-bit bit operations, which would truncate them.
 */
export class ByteWriter {
  private buf: Buffer;
  private len = 0;

  constructor(initial = 1024) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  get length(): number {
    return this.len;
  }

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  byte(value: number): void {
    this.room(1);
    this.buf[this.len++] = value;
  }

  /** An unsigned integer up to 2^53 - 1. */
  uint(value: number): void {
    if (!(value >= 0) || value > Number.MAX_SAFE_INTEGER || !Number.isInteger(value)) throw new RangeError(`not an unsigned safe integer: ${value}`);
    this.room(8);
    let v = value;
    while (v >= 0x80) {
      this.buf[this.len++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.len++] = v;
  }

  /** A signed integer of magnitude below 2^52 (zigzag: small magnitudes take few bytes). */
  sint(value: number): void {
    this.uint(value < 0 ? -2 * value - 1 : 2 * value);
  }

  double(value: number): void {
    this.room(8);
    this.buf.writeDoubleLE(value, this.len);
    this.len += 8;
  }

  bytes(value: Uint8Array): void {
    this.room(value.length);
    this.buf.set(value, this.len);
    this.len += value.length;
  }

  /** Appends a copy of bytes [start, start + length) already written. */
  repeat(start: number, length: number): void {
    this.room(length);
    this.buf.copy(this.buf, this.len, start, start + length);
    this.len += length;
  }

  /** Length, then the bytes. */
  block(value: Uint8Array): void {
    this.uint(value.length);
    this.bytes(value);
  }

  finish(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}

export class ByteReader {
  private pos = 0;

  constructor(private readonly buf: Uint8Array) {}

  get offset(): number {
    return this.pos;
  }

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  byte(): number {
    if (this.pos >= this.buf.length) throw new RangeError('read past the end of a packed block');
    return this.buf[this.pos++]!;
  }

  uint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
      if (scale > 2 ** 56) throw new RangeError('varint too long in a packed block');
    }
  }

  sint(): number {
    const z = this.uint();
    return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
  }

  double(): number {
    if (this.pos + 8 > this.buf.length) throw new RangeError('read past the end of a packed block');
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
    this.pos += 8;
    return view.getFloat64(0, true);
  }

  bytes(n: number): Uint8Array {
    if (this.pos + n > this.buf.length) throw new RangeError('read past the end of a packed block');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  block(): Uint8Array {
    return this.bytes(this.uint());
  }
}
