import assert from 'node:assert/strict';
import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import type { queryV1 } from '@stormhook/proto';
import { dayOf } from '../domain/buckets.js';
import type { HistoryKind } from '../domain/kinds.js';
import { readHistory, type HistoryReader, type HistoryWindow } from './read-history.js';

const T0 = Date.UTC(2026, 6, 1);
const HOUR = 3_600_000;

/** An in-memory reader over fixed records (the store's contract: a day's records from a time on, sorted). */
function reader(records: Array<{ kind: HistoryKind; ingestedMs: number; value: Uint8Array }>): HistoryReader {
  const matching = (q: HistoryWindow, from: number) =>
    records.filter((r) => q.kinds.has(r.kind) && r.ingestedMs >= Math.max(from, q.fromMs) && r.ingestedMs < q.toMs);
  return {
    retainedFrom: () => T0 - HOUR,
    coverageOf: (kind, from, to) => (kind === 'LIGHTNING' ? [{ fromMs: from, toMs: Math.min(to, from + HOUR) }] : []),
    daysOf: (q, from) => [...new Set(matching(q, from).map((r) => dayOf(r.ingestedMs)))].sort((a, b) => a - b),
    recordsOfDay: async (q, day, from) =>
      matching(q, from)
        .filter((r) => dayOf(r.ingestedMs) === day)
        .sort((a, b) => a.ingestedMs - b.ingestedMs || Buffer.compare(a.value, b.value)),
  };
}

const box = { minLng: 30, minLat: 38, maxLng: 31, maxLat: 39 };
const request = (over: Partial<queryV1.ReadHistoryRequest> = {}): queryV1.ReadHistoryRequest => ({
  fromEpochMs: T0,
  toEpochMs: T0 + 3 * 24 * HOUR,
  box,
  kinds: [],
  pageToken: '',
  maxPageBytes: 0,
  ...over,
});

async function refusal(history: HistoryReader, r: queryV1.ReadHistoryRequest): Promise<string> {
  try {
    await readHistory(history, r);
  } catch (error) {
    assert.ok(error instanceof GrpcError);
    assert.equal(error.code, GrpcStatus.INVALID_ARGUMENT);
    return error.message;
  }
  assert.fail('the request was accepted');
}

describe('ReadHistory (use case)', () => {
  it('pages through every record once, oldest first, even when a page ends among records of one ingest time', async () => {
    const records = Array.from({ length: 300 }, (_, i) => ({
      kind: (i % 5 === 0 ? 'PRECIPITATION' : 'LIGHTNING') as HistoryKind,
      // Runs of 7 records share an ingest time, and the records spread over three days.
      ingestedMs: T0 + Math.floor(i / 7) * 1.5 * HOUR,
      value: Buffer.from(`record-${String(i).padStart(4, '0')}-${'x'.repeat(i % 50)}`),
    }));
    const history = reader(records);
    const got: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const page = await readHistory(history, request({ pageToken: token, maxPageBytes: 1_000 }));
      pages++;
      if (pages === 1)
        assert.deepEqual(page.coverage.map((c) => c.kind).sort(), [
          'HISTORY_KIND_FORECAST',
          'HISTORY_KIND_LIGHTNING',
          'HISTORY_KIND_PRECIPITATION',
          'HISTORY_KIND_THUNDERSTORM',
        ]);
      else assert.deepEqual(page.coverage, []);
      const bytes = page.records.reduce((n, r) => n + r.value.length + 16, 0);
      assert.ok(page.records.length === 1 || bytes <= 1_000, `page of ${bytes} bytes`);
      for (let i = 1; i < page.records.length; i++) assert.ok(page.records[i - 1]!.ingestedEpochMs <= page.records[i]!.ingestedEpochMs);
      got.push(...page.records.map((r) => Buffer.from(r.value).toString()));
      token = page.nextPageToken;
    } while (token !== '' && pages < 1_000);
    const inWindow = records.filter((r) => r.ingestedMs < T0 + 3 * 24 * HOUR).map((r) => r.value.toString());
    assert.ok(pages > 10, `${pages} pages`);
    assert.deepEqual([...got].sort(), [...inWindow].sort());
    assert.equal(new Set(got).size, got.length);
  });

  it('answers only the kinds asked for, with their coverage and the retention', async () => {
    const history = reader([
      { kind: 'LIGHTNING', ingestedMs: T0 + 10, value: Buffer.from('a') },
      { kind: 'THUNDERSTORM', ingestedMs: T0 + 20, value: Buffer.from('b') },
    ]);
    const page = await readHistory(history, request({ kinds: ['HISTORY_KIND_THUNDERSTORM'] }));
    assert.deepEqual(
      page.records.map((r) => r.kind),
      ['HISTORY_KIND_THUNDERSTORM'],
    );
    assert.deepEqual(page.coverage, [{ kind: 'HISTORY_KIND_THUNDERSTORM', covered: [] }]);
    assert.equal(page.retainedFromEpochMs, T0 - HOUR);
    assert.equal(page.nextPageToken, '');
  });

  it('refuses bad requests with INVALID_ARGUMENT naming the field', async () => {
    const h = reader([]);
    assert.match(await refusal(h, request({ toEpochMs: T0 })), /to_epoch_ms must be after from_epoch_ms/);
    assert.match(await refusal(h, request({ toEpochMs: T0 + 32 * 24 * HOUR })), /to_epoch_ms must be at most 31 days/);
    assert.match(await refusal(h, request({ box: null })), /box is required/);
    assert.match(await refusal(h, request({ box: { ...box, minLat: -91 } })), /box.min_lat must be between -90 and 90/);
    assert.match(await refusal(h, request({ box: { ...box, maxLng: 181 } })), /box.max_lng must be between -180 and 180/);
    assert.match(await refusal(h, request({ box: { ...box, minLat: 39.5 } })), /box.min_lat must not exceed box.max_lat/);
    assert.match(await refusal(h, request({ kinds: ['HISTORY_KIND_UNSPECIFIED'] })), /kinds\[0\] must be one of/);
    assert.match(await refusal(h, request({ maxPageBytes: 4 * 1024 * 1024 })), /max_page_bytes must be at most 3145728/);
    assert.match(await refusal(h, request({ pageToken: 'not-a-token' })), /page_token must be a next_page_token/);
  });

  it('refuses a token of another read', async () => {
    const records = Array.from({ length: 20 }, (_, i) => ({ kind: 'LIGHTNING' as HistoryKind, ingestedMs: T0 + i, value: Buffer.alloc(100, i) }));
    const page = await readHistory(reader(records), request({ maxPageBytes: 500 }));
    assert.notEqual(page.nextPageToken, '');
    assert.match(await refusal(reader(records), request({ maxPageBytes: 500, pageToken: page.nextPageToken, box: { ...box, maxLat: 38.5 } })), /page_token/);
  });
});
