import { GrpcError, GrpcStatus, type GrpcClient } from '@stormhook/grpc';
import { enumName, enumValue, queryV1 } from '@stormhook/proto';
import { DependencyUnavailableError } from '../ports/dependency.js';
import type { HistoryKind, HistoryRead, HistoryRecord, HistoryWindow, Span, WeatherHistory } from '../ports/weather-history.js';

export type HistoryClient = Pick<GrpcClient<typeof queryV1.WeatherHistoryService>, 'readHistory'>;

function kindToProto(kind: HistoryKind): queryV1.HistoryKind {
  return enumValue(queryV1.HistoryKind, kind);
}

/** The port's kind of a proto kind; undefined for one this matcher does not know (UNSPECIFIED, or newer than it). */
function kindFromProto(kind: queryV1.HistoryKind | string): HistoryKind | undefined {
  return enumName(queryV1.HistoryKind, kind);
}

export interface GrpcHistoryOptions {
  /** Upper bound of one page's record bytes; 0 leaves it to query (2 MiB). */
  maxPageBytes?: number;
}

/**
 * The weather history over query's WeatherHistoryService. The first page is read at once (it carries
 * the coverage and the retention); later pages are read as the records are consumed, one page ahead,
 * so matching a page overlaps the transfer of the next while memory stays at about two pages however
 * long the window. A failure to answer is DependencyUnavailableError('query') (a 503 for the API
 * caller); INVALID_ARGUMENT, which a window this matcher checked cannot cause, is thrown as it is.
 */
export class GrpcWeatherHistory implements WeatherHistory {
  constructor(
    private readonly client: HistoryClient,
    private readonly options: GrpcHistoryOptions = {},
  ) {}

  async read(window: HistoryWindow): Promise<HistoryRead> {
    const request = (pageToken: string): queryV1.ReadHistoryRequest => ({
      fromEpochMs: window.fromMs,
      toEpochMs: window.toMs,
      box: { minLng: window.box.minLng, minLat: window.box.minLat, maxLng: window.box.maxLng, maxLat: window.box.maxLat },
      kinds: window.kinds.map(kindToProto),
      pageToken,
      maxPageBytes: this.options.maxPageBytes ?? 0,
    });
    const first = await this.page(request(''));
    const coverage = new Map<HistoryKind, Span[]>(window.kinds.map((kind) => [kind, []]));
    for (const entry of first.coverage) {
      const kind = kindFromProto(entry.kind);
      if (!kind) continue;
      coverage.set(
        kind,
        entry.covered.map((s) => ({ fromMs: s.fromEpochMs, toMs: s.toEpochMs })),
      );
    }
    return { records: this.records(first, request), coverage, retainedFromMs: first.retainedFromEpochMs };
  }

  private async *records(first: queryV1.ReadHistoryResponse, request: (pageToken: string) => queryV1.ReadHistoryRequest): AsyncGenerator<HistoryRecord> {
    let page = first;
    for (;;) {
      const next = page.nextPageToken === '' ? undefined : this.page(request(page.nextPageToken));
      // A consumer that stops early leaves the page read ahead unawaited: its failure must not go unhandled.
      next?.catch(() => undefined);
      for (const record of page.records) {
        const kind = kindFromProto(record.kind);
        if (!kind) throw new Error(`query's history answered a record of kind ${String(record.kind)}, which was not asked for`);
        yield { kind, ingestedMs: record.ingestedEpochMs, value: record.value };
      }
      if (!next) return;
      page = await next;
    }
  }

  private async page(request: queryV1.ReadHistoryRequest): Promise<queryV1.ReadHistoryResponse> {
    try {
      return await this.client.readHistory(request);
    } catch (error) {
      if (error instanceof GrpcError && error.code === GrpcStatus.INVALID_ARGUMENT) throw error;
      throw new DependencyUnavailableError('query', `query's weather history did not answer ReadHistory: ${(error as Error).message}`, { cause: error });
    }
  }
}
