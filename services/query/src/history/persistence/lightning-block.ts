import { ByteReader, ByteWriter } from './byte-io.js';
import { columnScale, DecimalDecoder, DecimalEncoder } from './decimal-column.js';
import { parseLightning, PRESENT, writeLightning, type LightningWire } from './lightning-wire.js';

/**
 * A block of strikes as columns: each field of LightningEvent in a stream of its own (times as
 * differences, coordinates and currents as scaled integers, ids front-coded against the previous
 * one, "ltg_" + source id recognised), so the deflate that follows finds the repetition. Every record
 * is checked at write time: if its columns do not give back its exact bytes it is kept as bytes.
 *
 *   u8 version | uint count | 4 x u8 scale (lng, lat, current, height) | STREAMS x block
 */
const VERSION = 1;
const LTG = Buffer.from('ltg_', 'utf8');

enum S {
  Presence,
  Ingested,
  Raw,
  EventIdMode,
  EventIdBytes,
  SourceNums,
  SourceBytes,
  Revision,
  SourceVersion,
  SourceUpdated,
  RevIngested,
  AreaNums,
  AreaBytes,
  Time,
  Type,
  Lng,
  Lat,
  Current,
  Height,
  Doubles,
  Multiplicity,
  Count,
}

export interface TimedValue {
  ingestedMs: number;
  value: Uint8Array;
}

function sharedPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

function derivedId(w: LightningWire): boolean {
  if ((w.presence & (PRESENT.eventId | PRESENT.sourceEventId)) !== (PRESENT.eventId | PRESENT.sourceEventId)) return false;
  const id = w.eventId;
  const src = w.sourceEventId;
  if (id.length !== src.length + LTG.length) return false;
  for (let i = 0; i < LTG.length; i++) if (id[i] !== LTG[i]) return false;
  for (let i = 0; i < src.length; i++) if (id[i + LTG.length] !== src[i]) return false;
  return true;
}

const zigzag = (d: number) => (d < 0 ? -2 * d - 1 : 2 * d);
const unzigzag = (z: number) => (z % 2 === 1 ? -(z + 1) / 2 : z / 2);

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** Packs strikes sorted by ingestedMs (ascending). */
export function encodeLightningBlock(records: readonly TimedValue[]): Buffer {
  const parsed = records.map((r) => {
    const w = parseLightning(r.value);
    if (!w) return undefined;
    // Kept as columns only when the columns give the value back exactly.
    const check = new ByteWriter(r.value.length + 16);
    writeLightning(check, w);
    return sameBytes(check.finish(), r.value) ? w : undefined;
  });
  const present = (bit: number) => parsed.filter((w): w is LightningWire => w !== undefined && (w.presence & bit) !== 0);
  const scales = [
    columnScale(present(PRESENT.lng).map((w) => w.lng)),
    columnScale(present(PRESENT.lat).map((w) => w.lat)),
    columnScale(present(PRESENT.peakCurrent).map((w) => w.peakCurrent)),
    columnScale(present(PRESENT.inCloudHeight).map((w) => w.inCloudHeight)),
  ] as const;
  const s = Array.from({ length: S.Count }, () => new ByteWriter(256));
  const lng = new DecimalEncoder(scales[0], true, s[S.Lng]!, s[S.Doubles]!);
  const lat = new DecimalEncoder(scales[1], true, s[S.Lat]!, s[S.Doubles]!);
  const current = new DecimalEncoder(scales[2], false, s[S.Current]!, s[S.Doubles]!);
  const height = new DecimalEncoder(scales[3], false, s[S.Height]!, s[S.Doubles]!);
  let prevIngested = 0;
  let prevSource: Uint8Array = new Uint8Array(0);
  let prevArea: Uint8Array = new Uint8Array(0);
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    if (r.ingestedMs < prevIngested) throw new Error('a lightning block takes records in ingest order');
    s[S.Ingested]!.uint(r.ingestedMs - prevIngested);
    prevIngested = r.ingestedMs;
    const w = parsed[i];
    if (!w) {
      s[S.Presence]!.uint(0);
      s[S.Raw]!.block(r.value);
      continue;
    }
    const p = w.presence;
    s[S.Presence]!.uint(p + 1);
    if (p & PRESENT.eventId) {
      if (derivedId(w)) s[S.EventIdMode]!.uint(0);
      else {
        s[S.EventIdMode]!.uint(1);
        s[S.EventIdBytes]!.block(w.eventId);
      }
    }
    if (p & PRESENT.sourceEventId) {
      const shared = sharedPrefix(prevSource, w.sourceEventId);
      s[S.SourceNums]!.uint(shared);
      s[S.SourceNums]!.uint(w.sourceEventId.length - shared);
      s[S.SourceBytes]!.bytes(w.sourceEventId.subarray(shared));
      prevSource = w.sourceEventId;
    }
    if (p & PRESENT.revision) s[S.Revision]!.uint(w.revision);
    if (p & PRESENT.sourceVersion) s[S.SourceVersion]!.uint(w.sourceVersion);
    // Zero (not given) apart from a time, which is kept as its distance from the ingest time.
    if (p & PRESENT.sourceUpdated) s[S.SourceUpdated]!.uint(w.sourceUpdatedMs === 0 ? 0 : 1 + zigzag(w.sourceUpdatedMs - r.ingestedMs));
    if (p & PRESENT.ingested) s[S.RevIngested]!.sint(w.ingestedMs - r.ingestedMs);
    if (p & PRESENT.areaKey) {
      const shared = sharedPrefix(prevArea, w.areaKey);
      s[S.AreaNums]!.uint(shared);
      s[S.AreaNums]!.uint(w.areaKey.length - shared);
      s[S.AreaBytes]!.bytes(w.areaKey.subarray(shared));
      prevArea = w.areaKey;
    }
    if (p & PRESENT.time) s[S.Time]!.sint(r.ingestedMs - w.timeMs);
    if (p & PRESENT.type) s[S.Type]!.uint(w.type);
    if (p & PRESENT.lng) lng.write(w.lng);
    if (p & PRESENT.lat) lat.write(w.lat);
    if (p & PRESENT.peakCurrent) current.write(w.peakCurrent);
    if (p & PRESENT.inCloudHeight) height.write(w.inCloudHeight);
    if (p & PRESENT.multiplicity) s[S.Multiplicity]!.uint(w.multiplicity);
  }
  const out = new ByteWriter(1024);
  out.byte(VERSION);
  out.uint(records.length);
  for (const scale of scales) out.byte(scale);
  for (const stream of s) out.block(stream.finish());
  return out.finish();
}

/** A decoded block: the columns a read filters on, and each record's exact bytes on demand. */
export interface LightningColumns {
  count: number;
  ingested: Float64Array;
  /** NaN for a strike without a location. */
  lng: Float64Array;
  lat: Float64Array;
  /** Appends record i's value (its exact bytes) to `out`. */
  writeValue(i: number, out: ByteWriter): void;
  /** `<eventId>:<revision>`, the de-duplication key. */
  key(i: number): string;
}

/** What a read needs of a strike kept as bytes (one the columns could not hold): its key and location. */
export type DescribeRaw = (raw: Uint8Array) => { key: string; lng: number; lat: number };

export function decodeLightningBlock(bytes: Uint8Array, describeRaw: DescribeRaw): LightningColumns {
  const head = new ByteReader(bytes);
  const version = head.byte();
  if (version !== VERSION) throw new Error(`unknown lightning block version ${version}`);
  const count = head.uint();
  const scales = [head.byte(), head.byte(), head.byte(), head.byte()];
  const s: ByteReader[] = [];
  for (let i = 0; i < S.Count; i++) s.push(new ByteReader(head.block()));
  const lngDec = new DecimalDecoder(scales[0]!, true, s[S.Lng]!, s[S.Doubles]!);
  const latDec = new DecimalDecoder(scales[1]!, true, s[S.Lat]!, s[S.Doubles]!);
  const curDec = new DecimalDecoder(scales[2]!, false, s[S.Current]!, s[S.Doubles]!);
  const hgtDec = new DecimalDecoder(scales[3]!, false, s[S.Height]!, s[S.Doubles]!);

  const presence = new Uint32Array(count);
  const ingested = new Float64Array(count);
  const lng = new Float64Array(count).fill(Number.NaN);
  const lat = new Float64Array(count).fill(Number.NaN);
  const nums = new Float64Array(count * 8); // revision, sourceVersion, sourceUpdated, revIngested, time, type, current, height
  const multiplicity = new Float64Array(count);
  const raw = new Map<number, Uint8Array>();
  const literalIds = new Map<number, Uint8Array>();
  const strings = new ByteWriter(count * 24 + 64);
  const source = new Uint32Array(count * 2);
  const area = new Uint32Array(count * 2);
  const idMode = new Uint8Array(count);

  let t = 0;
  let prevSource: [number, number] = [0, 0];
  let prevArea: [number, number] = [0, 0];
  const frontCoded = (nums: ByteReader, tail: ByteReader, prev: [number, number], into: Uint32Array, i: number): [number, number] => {
    const shared = nums.uint();
    const rest = nums.uint();
    const start = strings.length;
    strings.repeat(prev[0], shared);
    strings.bytes(tail.bytes(rest));
    into[2 * i] = start;
    into[2 * i + 1] = strings.length;
    return [start, strings.length];
  };
  for (let i = 0; i < count; i++) {
    t += s[S.Ingested]!.uint();
    ingested[i] = t;
    const mark = s[S.Presence]!.uint();
    if (mark === 0) {
      const value = s[S.Raw]!.block();
      raw.set(i, value);
      const described = describeRaw(value);
      lng[i] = described.lng;
      lat[i] = described.lat;
      continue;
    }
    const p = mark - 1;
    presence[i] = p;
    const n = i * 8;
    if (p & PRESENT.eventId) {
      idMode[i] = s[S.EventIdMode]!.uint() === 0 ? 0 : 1;
      if (idMode[i] === 1) literalIds.set(i, s[S.EventIdBytes]!.block());
    }
    if (p & PRESENT.sourceEventId) prevSource = frontCoded(s[S.SourceNums]!, s[S.SourceBytes]!, prevSource, source, i);
    if (p & PRESENT.revision) nums[n] = s[S.Revision]!.uint();
    if (p & PRESENT.sourceVersion) nums[n + 1] = s[S.SourceVersion]!.uint();
    if (p & PRESENT.sourceUpdated) {
      const z = s[S.SourceUpdated]!.uint();
      nums[n + 2] = z === 0 ? 0 : t + unzigzag(z - 1);
    }
    if (p & PRESENT.ingested) nums[n + 3] = t + s[S.RevIngested]!.sint();
    if (p & PRESENT.areaKey) prevArea = frontCoded(s[S.AreaNums]!, s[S.AreaBytes]!, prevArea, area, i);
    if (p & PRESENT.time) nums[n + 4] = t - s[S.Time]!.sint();
    if (p & PRESENT.type) nums[n + 5] = s[S.Type]!.uint();
    if (p & PRESENT.lng) lng[i] = lngDec.read();
    if (p & PRESENT.lat) lat[i] = latDec.read();
    if (p & PRESENT.peakCurrent) nums[n + 6] = curDec.read();
    if (p & PRESENT.inCloudHeight) nums[n + 7] = hgtDec.read();
    if (p & PRESENT.multiplicity) multiplicity[i] = s[S.Multiplicity]!.uint();
  }
  const all = strings.finish();
  const sourceOf = (i: number) => all.subarray(source[2 * i]!, source[2 * i + 1]!);
  const eventIdOf = (i: number): Uint8Array => {
    if (!(presence[i]! & PRESENT.eventId)) return new Uint8Array(0);
    return literalIds.get(i) ?? Buffer.concat([LTG, sourceOf(i)]);
  };
  const wire = (i: number): LightningWire => {
    const n = i * 8;
    return {
      presence: presence[i]!,
      eventId: eventIdOf(i),
      sourceEventId: sourceOf(i),
      revision: nums[n]!,
      sourceVersion: nums[n + 1]!,
      sourceUpdatedMs: nums[n + 2]!,
      ingestedMs: nums[n + 3]!,
      areaKey: all.subarray(area[2 * i]!, area[2 * i + 1]!),
      timeMs: nums[n + 4]!,
      type: nums[n + 5]!,
      lng: lng[i]!,
      lat: lat[i]!,
      peakCurrent: nums[n + 6]!,
      inCloudHeight: nums[n + 7]!,
      multiplicity: multiplicity[i]!,
    };
  };
  return {
    count,
    ingested,
    lng,
    lat,
    writeValue(i, out) {
      const value = raw.get(i);
      if (value) out.bytes(value);
      else writeLightning(out, wire(i));
    },
    key(i) {
      const value = raw.get(i);
      if (value) return describeRaw(value).key;
      return `${Buffer.from(eventIdOf(i)).toString('utf8')}:${nums[i * 8]!}`;
    },
  };
}
