import type { BBox, MultiPolygon } from '@stormhook/geometry';
import type { Point } from '../faults/storm.js';
import type { IntensityName, SeverityName, TrackedRevision } from './city-storm-system.js';

/**
 * The callbacks a storm must cause, worked out from the registrations' filters and areas on the
 * benchmark's side, and the callbacks the receiver got, so the two can be compared one by one. The
 * geometry is the matcher's own (its PreparedCircle and PreparedPolygon over the boundaries geo
 * serves it); the filter rules and the tracked-event lifecycle are the documented ones (README,
 * matching/rules.ts, lifecycle/tracked-event.ts): a START per strike inside a lightning alarm, and
 * for each thunderstorm cell or rain area a START when a revision first matches a registration, an
 * END when a later one no longer does (an UPDATE only when a revision is worse than what was
 * notified: the storm keeps each event's severity and intensity, so there is none). Approach stages
 * and lightning rings are not used.
 */

/** The part of the matcher's prepared shapes the expectation needs. */
export interface WatchedShape {
  readonly bbox: BBox;
  contains(lng: number, lat: number): boolean;
  intersects(other: MultiPolygon, otherBox: BBox): boolean;
}

export interface StoredFilter {
  lightning?: { type?: string; peakCurrentA?: number };
  thunderstorm?: { intersectsAffectedPolygon?: boolean; intersectsCellPolygon?: boolean; severityThreshold?: SeverityName; speedThresholdKmh?: number };
  precipitation?: { intensities: IntensityName[] };
}

export interface WatchedRegistration {
  registrationId: string;
  filter: StoredFilter;
}

/** Registrations sharing one area (a district's alarms share its boundary). */
interface AreaGroup {
  shape: WatchedShape;
  registrations: WatchedRegistration[];
}

const SEVERITY_RANK: Record<SeverityName, number> = { LOW: 1, MEDIUM: 2, HIGH: 3 };

export function lightningPasses(filter: NonNullable<StoredFilter['lightning']>, strike: { type: string; peakCurrentA: number }): boolean {
  if (filter.type !== undefined && filter.type !== strike.type) return false;
  return filter.peakCurrentA === undefined || Math.abs(strike.peakCurrentA) >= Math.abs(filter.peakCurrentA);
}

/** Both polygons when the filter names neither; otherwise the ones set true. */
function watched(filter: NonNullable<StoredFilter['thunderstorm']>): { cell: boolean; threat: boolean } {
  if (filter.intersectsCellPolygon === undefined && filter.intersectsAffectedPolygon === undefined) return { cell: true, threat: true };
  return { cell: filter.intersectsCellPolygon === true, threat: filter.intersectsAffectedPolygon === true };
}

export function trackedMatches(registration: WatchedRegistration, shape: WatchedShape, revision: TrackedRevision): boolean {
  if (revision.kind === 'PRECIPITATION') {
    const filter = registration.filter.precipitation;
    if (!filter) return false;
    if (filter.intensities.length > 0 && !filter.intensities.includes(revision.intensity!)) return false;
    return shape.intersects(revision.polygon, revision.box);
  }
  const filter = registration.filter.thunderstorm;
  if (!filter) return false;
  if (filter.severityThreshold !== undefined && SEVERITY_RANK[revision.severity!] < SEVERITY_RANK[filter.severityThreshold]) return false;
  if (filter.speedThresholdKmh !== undefined && revision.speedKmh! < filter.speedThresholdKmh) return false;
  const w = watched(filter);
  return (w.cell && shape.intersects(revision.polygon, revision.box)) || (w.threat && shape.intersects(revision.threat!, revision.threatBox!));
}

/** A callback's key: lightning by strike and registration, tracked events by event, registration and stage. */
export const lightningKey = (strikeId: string, registrationId: string): string => `L|${strikeId}|${registrationId}`;
export const trackedKey = (kind: 'T' | 'P', sourceId: string, registrationId: string, stage: string): string =>
  `${kind}|${sourceId}|${registrationId}|${stage}`;

/** Buckets areas by 0.05° cells of their box, so a strike or polygon is tested only against areas near it. */
class AreaBuckets {
  private readonly buckets = new Map<number, AreaGroup[]>();
  private static readonly CELL = 0.05;

  constructor(groups: Iterable<AreaGroup>) {
    for (const group of groups) for (const key of this.keys(group.shape.bbox)) this.add(key, group);
  }

  private add(key: number, group: AreaGroup): void {
    const list = this.buckets.get(key);
    if (list) list.push(group);
    else this.buckets.set(key, [group]);
  }

  private keys(box: BBox): number[] {
    const c = AreaBuckets.CELL;
    const keys: number[] = [];
    for (let x = Math.floor(box.minLng / c); x <= Math.floor(box.maxLng / c); x++)
      for (let y = Math.floor(box.minLat / c); y <= Math.floor(box.maxLat / c); y++) keys.push(x * 100_000 + y);
    return keys;
  }

  at(point: Point): readonly AreaGroup[] {
    const c = AreaBuckets.CELL;
    return this.buckets.get(Math.floor(point.lng / c) * 100_000 + Math.floor(point.lat / c)) ?? [];
  }

  near(box: BBox): AreaGroup[] {
    const found = new Set<AreaGroup>();
    for (const key of this.keys(box)) for (const group of this.buckets.get(key) ?? []) found.add(group);
    return [...found];
  }
}

/** Expected callbacks: key -> the record ids that cause them, one per notification, in order. */
export class ExpectedCallbacks {
  readonly causes = new Map<string, string[]>();
  lightning = 0;
  starts = 0;
  ends = 0;
  private readonly buckets: AreaBuckets;

  constructor(areas: Iterable<{ shape: WatchedShape; registrations: WatchedRegistration[] }>) {
    this.buckets = new AreaBuckets(areas);
  }

  private expect(key: string, cause: string): void {
    const list = this.causes.get(key);
    if (list) list.push(cause);
    else this.causes.set(key, [cause]);
  }

  /** A START for every lightning registration whose area holds the strike and whose filter it passes. */
  addStrike(strikeId: string, point: Point, strike: { type: string; peakCurrentA: number }): number {
    let n = 0;
    for (const group of this.buckets.at(point)) {
      let inside: boolean | undefined;
      for (const registration of group.registrations) {
        const filter = registration.filter.lightning;
        if (!filter || !lightningPasses(filter, strike)) continue;
        inside ??= group.shape.contains(point.lng, point.lat);
        if (!inside) break;
        this.expect(lightningKey(strikeId, registration.registrationId), strikeId);
        n++;
      }
    }
    this.lightning += n;
    return n;
  }

  /**
   * Runs the revisions (in publication order) through the START/END lifecycle of every registration
   * they touch. Every event's last revision must leave every area, so no state stays open (checked).
   */
  addRevisions(revisions: readonly TrackedRevision[]): void {
    /** sourceId -> registrations it is active for (their START notified, END not yet). */
    const active = new Map<string, Set<string>>();
    /** sourceId|registrationId -> episodes started. */
    const episodes = new Map<string, number>();
    for (const revision of revisions) {
      const kind = revision.kind === 'THUNDERSTORM' ? 'T' : 'P';
      const box = revision.threatBox
        ? {
            minLng: Math.min(revision.box.minLng, revision.threatBox.minLng),
            minLat: Math.min(revision.box.minLat, revision.threatBox.minLat),
            maxLng: Math.max(revision.box.maxLng, revision.threatBox.maxLng),
            maxLat: Math.max(revision.box.maxLat, revision.threatBox.maxLat),
          }
        : revision.box;
      const matched = new Set<string>();
      for (const group of this.buckets.near(box)) {
        for (const registration of group.registrations) if (trackedMatches(registration, group.shape, revision)) matched.add(registration.registrationId);
      }
      const open = active.get(revision.sourceId) ?? new Set<string>();
      for (const id of matched) {
        if (open.has(id)) continue;
        const episode = (episodes.get(`${revision.sourceId}|${id}`) ?? 0) + 1;
        episodes.set(`${revision.sourceId}|${id}`, episode);
        this.expect(trackedKey(kind, revision.sourceId, id, 'START'), revision.recordId);
        this.starts++;
      }
      for (const id of open) {
        if (matched.has(id)) continue;
        this.expect(trackedKey(kind, revision.sourceId, id, 'END'), revision.recordId);
        this.ends++;
      }
      active.set(revision.sourceId, matched);
    }
    for (const [sourceId, open] of active) {
      if (open.size > 0) throw new Error(`${sourceId}'s last revision still touches ${open.size} registrations: its END would wait for the expiry`);
    }
  }

  get total(): number {
    return this.lightning + this.starts + this.ends;
  }
}

/** What the receiver got, by key: each distinct notification id with its first arrival. */
export class ReceivedCallbacks {
  readonly byKey = new Map<string, Map<string, number>>();
  /** Calls for a notification id already received (the at-least-once kind). */
  duplicates = 0;
  /** Bodies that named no strike or tracked event (e.g. a lightning ALL_CLEAR). */
  other = 0;
  /** First arrivals, epoch ms, in order of arrival. */
  readonly arrivals: number[] = [];
  /** The first arrival of each notification id, epoch ms. */
  readonly firstAt = new Map<string, number>();
  /** Each repeated call: its notification id, when the id first arrived and when again. */
  readonly repeats: Array<{ id: string; firstAtMs: number; atMs: number }> = [];

  /** Records one acknowledged body (the receiver's onDelivered). */
  take(body: string, atMs: number): void {
    let parsed: { id?: unknown; stage?: unknown; strikeId?: unknown; eventId?: unknown; thunderstormId?: unknown; registrationId?: unknown };
    try {
      parsed = JSON.parse(body) as typeof parsed;
    } catch {
      this.other++;
      return;
    }
    const id = String(parsed.id ?? '');
    const registrationId = String(parsed.registrationId ?? '');
    const stage = String(parsed.stage ?? '');
    let key: string | undefined;
    if (typeof parsed.strikeId === 'string' && stage === 'START') key = lightningKey(parsed.strikeId, registrationId);
    else if (typeof parsed.thunderstormId === 'string') key = trackedKey('T', String(parsed.eventId), registrationId, stage);
    else if (typeof parsed.eventId === 'string' && parsed.eventId.startsWith('prc_')) key = trackedKey('P', parsed.eventId.slice(4), registrationId, stage);
    if (key === undefined) {
      this.other++;
      return;
    }
    const ids = this.byKey.get(key) ?? new Map<string, number>();
    const first = ids.get(id);
    if (first !== undefined) {
      this.duplicates++;
      this.repeats.push({ id, firstAtMs: first, atMs });
      return;
    }
    ids.set(id, atMs);
    this.byKey.set(key, ids);
    this.firstAt.set(id, atMs);
    this.arrivals.push(atMs);
  }

  get distinct(): number {
    return this.arrivals.length;
  }
}

export interface Comparison {
  expected: number;
  delivered: number;
  missing: number;
  /** Distinct notifications nobody expected (a model or matcher disagreement). */
  unexpected: number;
  /** Each delivered callback: the publication of its cause and its latency, ms. */
  timed: Array<{ causeAtMs: number; latencyMs: number }>;
  /** Missing keys (at most 5,000), to diagnose. */
  missingKeys: string[];
  unexpectedSample: string[];
}

/** Pairs the expected with the received (the k-th notification of a key with its k-th cause). */
export function compare(expected: ExpectedCallbacks, received: ReceivedCallbacks, publishedAt: ReadonlyMap<string, number>): Comparison {
  const result: Comparison = { expected: expected.total, delivered: 0, missing: 0, unexpected: 0, timed: [], missingKeys: [], unexpectedSample: [] };
  for (const [key, causes] of expected.causes) {
    const got = [...(received.byKey.get(key)?.values() ?? [])].sort((a, b) => a - b);
    const n = Math.min(got.length, causes.length);
    result.delivered += n;
    result.missing += causes.length - n;
    if (causes.length > n && result.missingKeys.length < 5_000) result.missingKeys.push(key);
    if (got.length > n) {
      result.unexpected += got.length - n;
      if (result.unexpectedSample.length < 5) result.unexpectedSample.push(key);
    }
    for (let i = 0; i < n; i++) {
      const causeAtMs = publishedAt.get(causes[i]!);
      if (causeAtMs !== undefined) result.timed.push({ causeAtMs, latencyMs: got[i]! - causeAtMs });
    }
  }
  for (const [key, ids] of received.byKey) {
    if (expected.causes.has(key)) continue;
    result.unexpected += ids.size;
    if (result.unexpectedSample.length < 5) result.unexpectedSample.push(key);
  }
  return result;
}
