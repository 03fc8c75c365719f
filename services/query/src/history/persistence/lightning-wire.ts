import type { ByteWriter } from './byte-io.js';

/**
 * weather.v1.LightningEvent read straight off the wire and written back byte for byte, so the
 * history can keep a strike as columns (a few bytes each once packed) and still hand back the exact
 * value ingest published. The parse is strict: any field out of order, repeated, of an unexpected
 * wire type, unknown, or a varint this reader cannot hold exactly (a negative int64) makes it give
 * up, and the block codec then keeps that record's bytes as they are. The writer follows protobufjs
 * (what ingest encodes with): fields in number order, each one that was present, zero or not.
 *
 * Field numbers are those of proto/stormhook/weather/v1/lightning.proto, common.proto (EventRevision)
 * and common/v1/geo.proto (GeoPoint).
 */
export interface LightningWire {
  /** Which fields were on the wire: the PRESENT_* bits. */
  presence: number;
  eventId: Uint8Array;
  sourceEventId: Uint8Array;
  revision: number;
  sourceVersion: number;
  sourceUpdatedMs: number;
  ingestedMs: number;
  areaKey: Uint8Array;
  timeMs: number;
  type: number;
  lng: number;
  lat: number;
  peakCurrent: number;
  inCloudHeight: number;
  multiplicity: number;
}

export const PRESENT = {
  eventId: 1 << 0,
  sourceEventId: 1 << 1,
  revisionMessage: 1 << 2,
  areaKey: 1 << 3,
  time: 1 << 4,
  type: 1 << 5,
  locationMessage: 1 << 6,
  peakCurrent: 1 << 7,
  inCloudHeight: 1 << 8,
  multiplicity: 1 << 9,
  revision: 1 << 10,
  sourceVersion: 1 << 11,
  sourceUpdated: 1 << 12,
  ingested: 1 << 13,
  lng: 1 << 14,
  lat: 1 << 15,
} as const;

const EMPTY = new Uint8Array(0);
const WT_VARINT = 0;
const WT_FIXED64 = 1;
const WT_LEN = 2;

class Cursor {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  /** A varint of at most 53 bits, or undefined (too long, or past the end). */
  varint(): number | undefined {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      if (this.pos >= this.end) return undefined;
      const b = this.buf[this.pos++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value <= Number.MAX_SAFE_INTEGER ? value : undefined;
      scale *= 0x80;
    }
    return undefined;
  }

  double(): number | undefined {
    if (this.pos + 8 > this.end) return undefined;
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
    this.pos += 8;
    return view.getFloat64(0, true);
  }

  /** The [start, end) of a length-delimited field's body. */
  delimited(): [number, number] | undefined {
    const len = this.varint();
    if (len === undefined || this.pos + len > this.end) return undefined;
    const start = this.pos;
    this.pos += len;
    return [start, this.pos];
  }
}

/** The fields of a strike, or undefined when these bytes are not the plain protobufjs form this module writes back. */
export function parseLightning(bytes: Uint8Array): LightningWire | undefined {
  const w: LightningWire = {
    presence: 0,
    eventId: EMPTY,
    sourceEventId: EMPTY,
    revision: 0,
    sourceVersion: 0,
    sourceUpdatedMs: 0,
    ingestedMs: 0,
    areaKey: EMPTY,
    timeMs: 0,
    type: 0,
    lng: 0,
    lat: 0,
    peakCurrent: 0,
    inCloudHeight: 0,
    multiplicity: 0,
  };
  const c = new Cursor(bytes, 0, bytes.length);
  let last = 0;
  while (c.pos < c.end) {
    const tag = c.varint();
    if (tag === undefined) return undefined;
    const field = Math.floor(tag / 8);
    const wt = tag % 8;
    if (field <= last) return undefined;
    last = field;
    switch (field) {
      case 1:
      case 2:
      case 4: {
        if (wt !== WT_LEN) return undefined;
        const span = c.delimited();
        if (!span) return undefined;
        const s = bytes.subarray(span[0], span[1]);
        if (field === 1) {
          w.eventId = s;
          w.presence |= PRESENT.eventId;
        } else if (field === 2) {
          w.sourceEventId = s;
          w.presence |= PRESENT.sourceEventId;
        } else {
          w.areaKey = s;
          w.presence |= PRESENT.areaKey;
        }
        break;
      }
      case 3: {
        if (wt !== WT_LEN) return undefined;
        const span = c.delimited();
        if (!span || !parseRevision(new Cursor(bytes, span[0], span[1]), w)) return undefined;
        w.presence |= PRESENT.revisionMessage;
        break;
      }
      case 5:
      case 6:
      case 10: {
        if (wt !== WT_VARINT) return undefined;
        const v = c.varint();
        if (v === undefined) return undefined;
        if (field === 5) {
          w.timeMs = v;
          w.presence |= PRESENT.time;
        } else if (field === 6) {
          w.type = v;
          w.presence |= PRESENT.type;
        } else {
          w.multiplicity = v;
          w.presence |= PRESENT.multiplicity;
        }
        break;
      }
      case 7: {
        if (wt !== WT_LEN) return undefined;
        const span = c.delimited();
        if (!span || !parsePoint(new Cursor(bytes, span[0], span[1]), w)) return undefined;
        w.presence |= PRESENT.locationMessage;
        break;
      }
      case 8:
      case 9: {
        if (wt !== WT_FIXED64) return undefined;
        const v = c.double();
        if (v === undefined) return undefined;
        if (field === 8) {
          w.peakCurrent = v;
          w.presence |= PRESENT.peakCurrent;
        } else {
          w.inCloudHeight = v;
          w.presence |= PRESENT.inCloudHeight;
        }
        break;
      }
      default:
        return undefined;
    }
  }
  return w;
}

function parseRevision(c: Cursor, w: LightningWire): boolean {
  let last = 0;
  while (c.pos < c.end) {
    const tag = c.varint();
    if (tag === undefined || tag % 8 !== WT_VARINT) return false;
    const field = Math.floor(tag / 8);
    if (field <= last || field > 4) return false;
    last = field;
    const v = c.varint();
    if (v === undefined) return false;
    if (field === 1) {
      w.revision = v;
      w.presence |= PRESENT.revision;
    } else if (field === 2) {
      w.sourceVersion = v;
      w.presence |= PRESENT.sourceVersion;
    } else if (field === 3) {
      w.sourceUpdatedMs = v;
      w.presence |= PRESENT.sourceUpdated;
    } else {
      w.ingestedMs = v;
      w.presence |= PRESENT.ingested;
    }
  }
  return true;
}

function parsePoint(c: Cursor, w: LightningWire): boolean {
  let last = 0;
  while (c.pos < c.end) {
    const tag = c.varint();
    if (tag === undefined || tag % 8 !== WT_FIXED64) return false;
    const field = Math.floor(tag / 8);
    if (field <= last || field > 2) return false;
    last = field;
    const v = c.double();
    if (v === undefined) return false;
    if (field === 1) {
      w.lng = v;
      w.presence |= PRESENT.lng;
    } else {
      w.lat = v;
      w.presence |= PRESENT.lat;
    }
  }
  return true;
}

function varintSize(v: number): number {
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 0x80);
    n++;
  }
  return n;
}

/** Writes the strike as protobufjs would have: the exact bytes parseLightning read, when it read them. */
export function writeLightning(out: ByteWriter, w: LightningWire): void {
  const p = w.presence;
  if (p & PRESENT.eventId) {
    out.uint(0x0a);
    out.block(w.eventId);
  }
  if (p & PRESENT.sourceEventId) {
    out.uint(0x12);
    out.block(w.sourceEventId);
  }
  if (p & PRESENT.revisionMessage) {
    let len = 0;
    if (p & PRESENT.revision) len += 1 + varintSize(w.revision);
    if (p & PRESENT.sourceVersion) len += 1 + varintSize(w.sourceVersion);
    if (p & PRESENT.sourceUpdated) len += 1 + varintSize(w.sourceUpdatedMs);
    if (p & PRESENT.ingested) len += 1 + varintSize(w.ingestedMs);
    out.uint(0x1a);
    out.uint(len);
    if (p & PRESENT.revision) {
      out.uint(0x08);
      out.uint(w.revision);
    }
    if (p & PRESENT.sourceVersion) {
      out.uint(0x10);
      out.uint(w.sourceVersion);
    }
    if (p & PRESENT.sourceUpdated) {
      out.uint(0x18);
      out.uint(w.sourceUpdatedMs);
    }
    if (p & PRESENT.ingested) {
      out.uint(0x20);
      out.uint(w.ingestedMs);
    }
  }
  if (p & PRESENT.areaKey) {
    out.uint(0x22);
    out.block(w.areaKey);
  }
  if (p & PRESENT.time) {
    out.uint(0x28);
    out.uint(w.timeMs);
  }
  if (p & PRESENT.type) {
    out.uint(0x30);
    out.uint(w.type);
  }
  if (p & PRESENT.locationMessage) {
    const len = (p & PRESENT.lng ? 9 : 0) + (p & PRESENT.lat ? 9 : 0);
    out.uint(0x3a);
    out.uint(len);
    if (p & PRESENT.lng) {
      out.uint(0x09);
      out.double(w.lng);
    }
    if (p & PRESENT.lat) {
      out.uint(0x11);
      out.double(w.lat);
    }
  }
  if (p & PRESENT.peakCurrent) {
    out.uint(0x41);
    out.double(w.peakCurrent);
  }
  if (p & PRESENT.inCloudHeight) {
    out.uint(0x49);
    out.double(w.inCloudHeight);
  }
  if (p & PRESENT.multiplicity) {
    out.uint(0x50);
    out.uint(w.multiplicity);
  }
}
