import { createHash } from 'node:crypto';
import type { BBox } from '@stormhook/geometry';
import type { queryV1 } from '@stormhook/proto';
import { invalidArgument } from '../../usecases/errors.js';
import { Problems } from '../../usecases/limits.js';
import { DAY_MS } from '../domain/buckets.js';
import type { Span } from '../domain/coverage.js';
import { HISTORY_KINDS, protoKind, type HistoryKind } from '../domain/kinds.js';

/** What a read needs of the store (persistence/history-store.ts). */
export interface HistoryReader {
  retainedFrom(): number;
  coverageOf(kind: HistoryKind, fromMs: number, toMs: number): Span[];
  daysOf(q: HistoryWindow, fromMs: number): number[];
  /** `ahead`: the days the read goes on to, which the store may start fetching. */
  recordsOfDay(
    q: HistoryWindow,
    day: number,
    fromMs: number,
    ahead?: readonly number[],
  ): Promise<Array<{ kind: HistoryKind; ingestedMs: number; value: Uint8Array }>>;
}

export interface HistoryWindow {
  fromMs: number;
  toMs: number;
  box: BBox;
  kinds: ReadonlySet<HistoryKind>;
}

export const HISTORY_LIMITS = {
  maxWindowMs: 31 * DAY_MS,
  defaultPageBytes: 2 * 1024 * 1024,
  maxPageBytes: 3 * 1024 * 1024,
} as const;

/** What a page's record costs beside its value in the response (tags, kind, time, length). */
const RECORD_OVERHEAD = 16;

interface Resume {
  /** Ingest time of the next record. */
  t: number;
  /** Records of that ingest time already sent. */
  n: number;
  /** The request the token belongs to. */
  q: string;
}

function fingerprint(w: HistoryWindow): string {
  const kinds = [...w.kinds].sort().join(',');
  return createHash('sha256')
    .update(`${w.fromMs}|${w.toMs}|${w.box.minLng}|${w.box.minLat}|${w.box.maxLng}|${w.box.maxLat}|${kinds}`)
    .digest('base64url')
    .slice(0, 12);
}

function encodeToken(r: Resume): string {
  return Buffer.from(JSON.stringify(r), 'utf8').toString('base64url');
}

function decodeToken(token: string): Resume | undefined {
  try {
    const r = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<Resume>;
    if (Number.isSafeInteger(r.t) && Number.isSafeInteger(r.n) && r.n! >= 0 && typeof r.q === 'string') return r as Resume;
  } catch {
    // Not ours: refused below.
  }
  return undefined;
}

function checkBox(p: Problems, box: queryV1.ReadHistoryRequest['box']): BBox | undefined {
  if (!box) {
    p.check(false, 'box is required');
    return undefined;
  }
  const lat = (v: number) => Number.isFinite(v) && v >= -90 && v <= 90;
  const lng = (v: number) => Number.isFinite(v) && v >= -180 && v <= 180;
  const latsOk = lat(box.minLat) && lat(box.maxLat);
  const lngsOk = lng(box.minLng) && lng(box.maxLng);
  p.check(lat(box.minLat), 'box.min_lat must be between -90 and 90 (degrees)');
  p.check(lat(box.maxLat), 'box.max_lat must be between -90 and 90 (degrees)');
  p.check(lng(box.minLng), 'box.min_lng must be between -180 and 180 (degrees)');
  p.check(lng(box.maxLng), 'box.max_lng must be between -180 and 180 (degrees)');
  // Only once both edges are in range, so one bad edge is one problem.
  p.check(!latsOk || box.minLat <= box.maxLat, 'box.min_lat must not exceed box.max_lat');
  p.check(!lngsOk || box.minLng <= box.maxLng, 'box.min_lng must not exceed box.max_lng');
  return { minLng: box.minLng, minLat: box.minLat, maxLng: box.maxLng, maxLat: box.maxLat };
}

function checkKinds(p: Problems, kinds: readonly queryV1.HistoryKind[]): Set<HistoryKind> {
  if (kinds.length === 0) return new Set(HISTORY_KINDS);
  const out = new Set<HistoryKind>();
  kinds.forEach((value, i) => {
    const kind = HISTORY_KINDS.find((k) => protoKind(k) === value);
    if (kind) out.add(kind);
    else p.check(false, `kinds[${i}] must be one of ${HISTORY_KINDS.map(protoKind).join(', ')}`);
  });
  return out;
}

/**
 * WeatherHistoryService.ReadHistory: the records of a window and box, oldest first by ingest time, a
 * page at a time (the token carries the ingest time to go on from and how many records of that time
 * were sent), and on the first page the coverage of each kind asked for.
 */
export async function readHistory(history: HistoryReader, request: queryV1.ReadHistoryRequest): Promise<queryV1.ReadHistoryResponse> {
  const p = new Problems();
  const { fromEpochMs: from, toEpochMs: to } = request;
  p.check(Number.isSafeInteger(from) && from >= 0, 'from_epoch_ms must be an integer of at least 0 (epoch milliseconds)');
  p.check(Number.isSafeInteger(to) && to > from, 'to_epoch_ms must be after from_epoch_ms (epoch milliseconds)');
  p.check(!(to - from > HISTORY_LIMITS.maxWindowMs), `to_epoch_ms must be at most 31 days (${HISTORY_LIMITS.maxWindowMs} ms) after from_epoch_ms`);
  const box = checkBox(p, request.box);
  const kinds = checkKinds(p, request.kinds);
  const maxBytes = request.maxPageBytes === 0 ? HISTORY_LIMITS.defaultPageBytes : request.maxPageBytes;
  p.check(maxBytes <= HISTORY_LIMITS.maxPageBytes, `max_page_bytes must be at most ${HISTORY_LIMITS.maxPageBytes} (bytes)`);
  if (p.list.length > 0 || !box) throw invalidArgument(p.list);

  const window: HistoryWindow = { fromMs: from, toMs: to, box, kinds };
  const q = fingerprint(window);
  let resume: Resume = { t: from, n: 0, q };
  if (request.pageToken !== '') {
    const decoded = decodeToken(request.pageToken);
    if (!decoded || decoded.q !== q || decoded.t < from || decoded.t >= to) {
      throw invalidArgument(['page_token must be a next_page_token of a read with the same window, box and kinds']);
    }
    resume = decoded;
  }

  const records: queryV1.HistoryRecord[] = [];
  let bytes = 0;
  let next: Resume | undefined;
  let lastT = resume.t;
  let sameT = resume.n;
  let skip = resume.n;
  const days = history.daysOf(window, resume.t);
  filling: for (const [i, day] of days.entries()) {
    for (const r of await history.recordsOfDay(window, day, resume.t, days.slice(i + 1))) {
      if (r.ingestedMs === resume.t && skip > 0) {
        skip--;
        continue;
      }
      const size = r.value.length + RECORD_OVERHEAD;
      if (records.length > 0 && bytes + size > maxBytes) {
        next = { t: r.ingestedMs, n: r.ingestedMs === lastT ? sameT : 0, q };
        break filling;
      }
      records.push({ kind: protoKind(r.kind), ingestedEpochMs: r.ingestedMs, value: r.value });
      bytes += size;
      if (r.ingestedMs === lastT) sameT++;
      else {
        lastT = r.ingestedMs;
        sameT = 1;
      }
    }
  }

  const first = request.pageToken === '';
  return {
    records,
    nextPageToken: next ? encodeToken(next) : '',
    coverage: first
      ? HISTORY_KINDS.filter((k) => kinds.has(k)).map((kind) => ({
          kind: protoKind(kind),
          covered: history.coverageOf(kind, from, to).map((s) => ({ fromEpochMs: s.fromMs, toEpochMs: s.toMs })),
        }))
      : [],
    retainedFromEpochMs: history.retainedFrom(),
  };
}
