import assert from 'node:assert/strict';
import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import type { queryV1 } from '@stormhook/proto';
import { DependencyUnavailableError } from '../ports/dependency.js';
import type { HistoryRecord, HistoryWindow } from '../ports/weather-history.js';
import { GrpcWeatherHistory, type HistoryClient } from './grpc-history.js';

const WINDOW: HistoryWindow = {
  fromMs: 1_000,
  toMs: 9_000,
  box: { minLng: 32.5, minLat: 39.7, maxLng: 33.1, maxLat: 40.1 },
  kinds: ['LIGHTNING', 'THUNDERSTORM'],
};

function record(kind: queryV1.HistoryKind, ingestedEpochMs: number): queryV1.HistoryRecord {
  return { kind, ingestedEpochMs, value: Uint8Array.of(ingestedEpochMs % 256) };
}

/** query's ReadHistory over fixed pages, keyed by page token; records every request it gets. */
class PagedHistory implements HistoryClient {
  readonly requests: queryV1.ReadHistoryRequest[] = [];
  failOn?: string;

  constructor(private readonly pages: Record<string, queryV1.ReadHistoryResponse>) {}

  async readHistory(request: queryV1.ReadHistoryRequest): Promise<queryV1.ReadHistoryResponse> {
    this.requests.push(request);
    if (this.failOn === request.pageToken) throw new GrpcError(GrpcStatus.UNAVAILABLE, 'connection refused');
    const page = this.pages[request.pageToken];
    if (!page) throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, `page_token ${request.pageToken} is unknown`);
    return page;
  }
}

const PAGES: Record<string, queryV1.ReadHistoryResponse> = {
  '': {
    records: [record('HISTORY_KIND_LIGHTNING', 1_100), record('HISTORY_KIND_THUNDERSTORM', 1_200)],
    nextPageToken: 'p2',
    coverage: [
      {
        kind: 'HISTORY_KIND_LIGHTNING',
        covered: [
          { fromEpochMs: 1_000, toEpochMs: 4_000 },
          { fromEpochMs: 6_000, toEpochMs: 9_000 },
        ],
      },
    ],
    retainedFromEpochMs: 500,
  },
  p2: { records: [record('HISTORY_KIND_LIGHTNING', 2_000)], nextPageToken: 'p3', coverage: [], retainedFromEpochMs: 500 },
  p3: { records: [record('HISTORY_KIND_THUNDERSTORM', 8_000)], nextPageToken: '', coverage: [], retainedFromEpochMs: 500 },
};

async function all(records: AsyncIterable<HistoryRecord>): Promise<HistoryRecord[]> {
  const seen: HistoryRecord[] = [];
  for await (const r of records) seen.push(r);
  return seen;
}

describe('GrpcWeatherHistory', () => {
  it("asks for the window's box and kinds, and answers coverage and retention from the first page", async () => {
    const client = new PagedHistory(PAGES);
    const read = await new GrpcWeatherHistory(client, { maxPageBytes: 65_536 }).read(WINDOW);
    assert.deepEqual(client.requests[0], {
      fromEpochMs: 1_000,
      toEpochMs: 9_000,
      box: { minLng: 32.5, minLat: 39.7, maxLng: 33.1, maxLat: 40.1 },
      kinds: ['HISTORY_KIND_LIGHTNING', 'HISTORY_KIND_THUNDERSTORM'],
      pageToken: '',
      maxPageBytes: 65_536,
    });
    assert.equal(read.retainedFromMs, 500);
    assert.deepEqual(
      [...read.coverage],
      [
        [
          'LIGHTNING',
          [
            { fromMs: 1_000, toMs: 4_000 },
            { fromMs: 6_000, toMs: 9_000 },
          ],
        ],
        ['THUNDERSTORM', []],
      ],
      'a kind asked for but absent from the coverage has no data',
    );
  });

  it('reads every page in order, with the kinds in the port spelling and the values as sent', async () => {
    const client = new PagedHistory(PAGES);
    const records = await all((await new GrpcWeatherHistory(client).read(WINDOW)).records);
    assert.deepEqual(
      records.map((r) => [r.kind, r.ingestedMs, [...r.value]]),
      [
        ['LIGHTNING', 1_100, [1_100 % 256]],
        ['THUNDERSTORM', 1_200, [1_200 % 256]],
        ['LIGHTNING', 2_000, [2_000 % 256]],
        ['THUNDERSTORM', 8_000, [8_000 % 256]],
      ],
    );
    assert.deepEqual(
      client.requests.map((r) => r.pageToken),
      ['', 'p2', 'p3'],
    );
    assert.ok(
      client.requests.every((r) => r.fromEpochMs === 1_000 && r.toEpochMs === 9_000 && r.kinds.length === 2),
      'every page asks for the same window',
    );
  });

  it('reads pages as the records are consumed, at most one page ahead', async () => {
    const client = new PagedHistory(PAGES);
    const read = await new GrpcWeatherHistory(client).read(WINDOW);
    assert.equal(client.requests.length, 1, 'only the first page before anything is consumed');
    const iterator = read.records[Symbol.asyncIterator]();
    await iterator.next();
    assert.deepEqual(
      client.requests.map((r) => r.pageToken),
      ['', 'p2'],
      'the next page is asked for while the first is consumed',
    );
    await iterator.return?.();
    assert.equal(client.requests.length, 2, 'a consumer that stops early stops the reading');
  });

  it("turns query's failure to answer into DependencyUnavailableError('query'), on the first page and on a later one", async () => {
    const down = new PagedHistory(PAGES);
    down.failOn = '';
    await assert.rejects(
      new GrpcWeatherHistory(down).read(WINDOW),
      (error: unknown) => error instanceof DependencyUnavailableError && error.dependency === 'query',
    );
    const later = new PagedHistory(PAGES);
    later.failOn = 'p3';
    const read = await new GrpcWeatherHistory(later).read(WINDOW);
    await assert.rejects(all(read.records), (error: unknown) => error instanceof DependencyUnavailableError && error.dependency === 'query');
  });

  it('lets INVALID_ARGUMENT through as it is: a window this matcher checked cannot cause it', async () => {
    const client = new PagedHistory({ ...PAGES, p2: { ...PAGES['p2']!, nextPageToken: 'gone' } });
    const read = await new GrpcWeatherHistory(client).read(WINDOW);
    await assert.rejects(all(read.records), (error: unknown) => error instanceof GrpcError && error.code === GrpcStatus.INVALID_ARGUMENT);
  });

  it('refuses a record of a kind it did not ask for rather than misreading it', async () => {
    const client = new PagedHistory({ '': { ...PAGES['']!, records: [record('HISTORY_KIND_UNSPECIFIED', 1_100)], nextPageToken: '' } });
    const read = await new GrpcWeatherHistory(client).read(WINDOW);
    await assert.rejects(all(read.records), /HISTORY_KIND_UNSPECIFIED/);
  });
});
