import { bboxesOverlap, type BBox } from '@stormhook/geometry';
import { weatherV1, type commonV1 } from '@stormhook/proto';
import type { HistoryKind, HistoryRead, HistoryRecord, HistoryWindow, Span, WeatherHistory } from '../ports/weather-history.js';

type Message = weatherV1.LightningEvent | weatherV1.ThunderstormEvent | weatherV1.PrecipitationEvent | weatherV1.ForecastEvent;

function boxOf(points: ReadonlyArray<{ lng: number; lat: number }>): BBox {
  let box: BBox = { minLng: Infinity, minLat: Infinity, maxLng: -Infinity, maxLat: -Infinity };
  for (const p of points) {
    box = {
      minLng: Math.min(box.minLng, p.lng),
      minLat: Math.min(box.minLat, p.lat),
      maxLng: Math.max(box.maxLng, p.lng),
      maxLat: Math.max(box.maxLat, p.lat),
    };
  }
  return box;
}

const ringPoints = (polygon: commonV1.Polygon | null | undefined) => polygon?.exterior?.points ?? [];

/**
 * The weather history in memory (tests and the back-test benchmark): records as the weather topics
 * carry them, each filed with the box it touches; coverage and retention as the test sets them.
 */
export class MemoryWeatherHistory implements WeatherHistory {
  private readonly records: Array<HistoryRecord & { box: BBox }> = [];
  readonly coverage = new Map<HistoryKind, Span[]>();
  retainedFromMs = 0;
  /** The windows asked for, for assertions on what was read. */
  readonly reads: HistoryWindow[] = [];

  /** Stores the value of a weather event as it was published on its topic, seen by the live path at `ingestedMs`. */
  add(kind: HistoryKind, message: Message, ingestedMs: number): void {
    let value: Uint8Array;
    let box: BBox;
    if (kind === 'LIGHTNING') {
      const m = message as weatherV1.LightningEvent;
      value = weatherV1.LightningEvent.encode(m);
      box = boxOf(m.location ? [m.location] : []);
    } else if (kind === 'THUNDERSTORM') {
      const m = message as weatherV1.ThunderstormEvent;
      value = weatherV1.ThunderstormEvent.encode(m);
      box = boxOf([...ringPoints(m.cell?.polygon), ...ringPoints(m.threatPolygon)]);
    } else if (kind === 'PRECIPITATION') {
      const m = message as weatherV1.PrecipitationEvent;
      value = weatherV1.PrecipitationEvent.encode(m);
      box = boxOf((m.geometry?.polygons ?? []).flatMap((p) => ringPoints(p)));
    } else {
      const m = message as weatherV1.ForecastEvent;
      value = weatherV1.ForecastEvent.encode(m);
      box = boxOf(m.cells.flatMap((c) => (c.location ? [c.location] : [])));
    }
    this.addEncoded({ kind, ingestedMs, value }, box);
  }

  /** Stores an already encoded record (the benchmark encodes once and files many). */
  addEncoded(record: HistoryRecord, box: BBox): void {
    this.records.push({ ...record, box });
  }

  /** Marks [fromMs, toMs) as held for `kind`. */
  cover(kind: HistoryKind, fromMs: number, toMs: number): void {
    const spans = this.coverage.get(kind) ?? [];
    spans.push({ fromMs, toMs });
    this.coverage.set(kind, spans);
  }

  async read(window: HistoryWindow): Promise<HistoryRead> {
    this.reads.push(window);
    const found = this.records
      .filter((r) => window.kinds.includes(r.kind) && r.ingestedMs >= window.fromMs && r.ingestedMs < window.toMs && bboxesOverlap(r.box, window.box))
      .sort((a, b) => a.ingestedMs - b.ingestedMs)
      .map(({ kind, ingestedMs, value }) => ({ kind, ingestedMs, value }));
    return {
      records: (async function* () {
        yield* found;
      })(),
      coverage: new Map(window.kinds.map((kind) => [kind, this.coverage.get(kind) ?? []])),
      retainedFromMs: this.retainedFromMs,
    };
  }
}
