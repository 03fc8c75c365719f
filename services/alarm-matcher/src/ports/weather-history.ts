import type { BBox } from '@stormhook/geometry';

/** The kinds of weather the history keeps (query's WeatherHistoryService, one per weather topic). */
export type HistoryKind = 'LIGHTNING' | 'THUNDERSTORM' | 'PRECIPITATION' | 'FORECAST';

/** A stretch of time, epoch ms UTC, from inclusive, to exclusive. */
export interface Span {
  fromMs: number;
  toMs: number;
}

/** One stored weather record: the protobuf value exactly as published on its weather.*.v1 topic. */
export interface HistoryRecord {
  kind: HistoryKind;
  /** EventRevision.ingested_epoch_ms: the order in which the live path saw the records. */
  ingestedMs: number;
  value: Uint8Array;
}

export interface HistoryWindow {
  fromMs: number;
  toMs: number;
  /** Only records touching this box. */
  box: BBox;
  kinds: readonly HistoryKind[];
}

export interface HistoryRead {
  /** The window's records, oldest first by ingestedMs (read page by page as they are consumed). */
  records: AsyncIterable<HistoryRecord>;
  /** Spans with data of each kind asked for, anywhere in the country. */
  coverage: ReadonlyMap<HistoryKind, readonly Span[]>;
  /** The oldest time the history still holds. */
  retainedFromMs: number;
}

/** The weather history, owned by the query service (architecture: "Weather history"). */
export interface WeatherHistory {
  read(window: HistoryWindow): Promise<HistoryRead>;
}
