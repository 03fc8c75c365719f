/**
 * Reader of the payload of POST /v1/precipitations/geometry: base64 of a protobuf
 * PrecipitationFeatureCollection (proto/stormhook/query/v1/precipitation_geometry.proto). Only the
 * members Stormhook sends are read (MULTI_POLYGON); a protobuf runtime for this one message would
 * cost the bundle more than these few lines.
 */

export interface PrecipitationFeature {
  id: string;
  intensity: string;
  radarTimestamp: number;
  forecast: boolean;
  /** Polygons, each a list of rings (exterior first), each a list of [lng, lat]. */
  polygons: [number, number][][][];
}

class Reader {
  pos = 0;
  constructor(
    private readonly bytes: Uint8Array,
    readonly end = bytes.length,
  ) {}

  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new Error('truncated varint');
      const byte = this.bytes[this.pos++]!;
      // Past 2^53 precision is lost, which no field read here reaches (epoch ms, lengths, enums).
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7;
      if (shift > 63) throw new Error('varint too long');
    }
  }

  double(): number {
    if (this.pos + 8 > this.end) throw new Error('truncated double');
    const value = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.pos, 8).getFloat64(0, true);
    this.pos += 8;
    return value;
  }

  /** A length-delimited field as a reader of its own bytes. */
  sub(): Reader {
    const length = this.varint();
    if (this.pos + length > this.end) throw new Error('truncated message');
    const inner = new Reader(this.bytes, this.pos + length);
    inner.pos = this.pos;
    this.pos += length;
    return inner;
  }

  string(): string {
    const inner = this.sub();
    return new TextDecoder().decode(this.bytes.subarray(inner.pos, inner.end));
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) this.sub();
    else if (wireType === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wireType}`);
  }

  /** Calls `field` for every field until the end; the callback reads the value or returns false to skip it. */
  fields(field: (number: number, wireType: number) => boolean): void {
    while (this.pos < this.end) {
      const key = this.varint();
      const number = Math.floor(key / 8);
      const wireType = key & 7;
      if (!field(number, wireType)) this.skip(wireType);
    }
  }
}

function coordinate(r: Reader): [number, number] {
  let lng = 0;
  let lat = 0;
  r.fields((n, w) => {
    if (n === 1 && w === 1) lng = r.double();
    else if (n === 2 && w === 1) lat = r.double();
    else return false;
    return true;
  });
  return [lng, lat];
}

/** A message whose field 1 repeats a sub-message: Ring.coordinates, PolygonShape.rings, MultiPolygonShape.polygons. */
function repeated<T>(r: Reader, item: (r: Reader) => T): T[] {
  const items: T[] = [];
  r.fields((n, w) => {
    if (n !== 1 || w !== 2) return false;
    items.push(item(r.sub()));
    return true;
  });
  return items;
}

const ring = (r: Reader) => repeated(r, coordinate);
const polygon = (r: Reader) => repeated(r, ring);
const multiPolygon = (r: Reader) => repeated(r, polygon);

function geometry(r: Reader): [number, number][][][] {
  let polygons: [number, number][][][] = [];
  r.fields((n, w) => {
    if (n === 7 && w === 2) polygons = multiPolygon(r.sub());
    else if (n === 4 && w === 2) polygons = [polygon(r.sub())];
    else return false;
    return true;
  });
  return polygons;
}

function feature(r: Reader): PrecipitationFeature {
  const out: PrecipitationFeature = { id: '', intensity: '', radarTimestamp: 0, forecast: false, polygons: [] };
  r.fields((n, w) => {
    if (n === 1 && w === 2) out.id = r.string();
    else if (n === 2 && w === 2) out.polygons = geometry(r.sub());
    else if (n === 3 && w === 2) {
      const p = r.sub();
      p.fields((pn, pw) => {
        if (pn === 1 && pw === 2) out.intensity = p.string();
        else if (pn === 2 && pw === 0) out.radarTimestamp = p.varint();
        else if (pn === 3 && pw === 0) out.forecast = p.varint() !== 0;
        else return false;
        return true;
      });
    } else return false;
    return true;
  });
  return out;
}

/** Decodes the operation's bytes into features; throws on bytes that are not a FeatureCollection. */
export function decodePrecipitationFeatures(bytes: Uint8Array): PrecipitationFeature[] {
  return repeated(new Reader(bytes), feature);
}

/** The operation answers a JSON string of base64. */
export function base64Bytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
