import type { Logger } from '@stormhook/logger';
import { publishOn, TopicNames } from '@stormhook/kafka';
import { enumValue, weatherV1, type feedV1 } from '@stormhook/proto';
import type { FeedSink } from '../feed-sink.js';
import type { GridPoint } from './grid.js';
import { forecastUrl } from './request.js';
import { parseForecastResponse, type LocationForecast } from './response.js';

const HOUR = 3_600_000;
/** Keep each chunk well under Kafka's default 1 MB record limit. */
const CHUNK_BYTES = 700_000;

export interface OpenMeteoOptions {
  baseUrl: string;
  points: readonly GridPoint[];
  forecastDays: number;
  model: string;
  apiKey?: string | undefined;
  /** Points per HTTP request (Open-Meteo accepts many; long URLs and big answers argue for batches). */
  locationsPerRequest: number;
  timeoutMs: number;
  fetch?: typeof fetch;
  clock?: () => number;
}

function stamp(t: number): string {
  return new Date(t).toISOString().slice(0, 13).replace(/[-:]/g, '');
}

/** No HTTP answer at all (DNS, refused, timeout, no route): the network, not Open-Meteo, is the problem. */
export class OpenMeteoUnreachable extends Error {
  constructor(
    readonly baseUrl: string,
    cause: unknown,
  ) {
    const detail =
      cause instanceof Error
        ? ((cause.cause as { code?: string; message?: string } | undefined)?.code ?? cause.cause?.toString() ?? cause.message)
        : String(cause);
    super(`Open-Meteo at ${baseUrl} is unreachable (${detail})`, { cause });
  }
}

async function fetchBatch(opts: OpenMeteoOptions, points: readonly GridPoint[]): Promise<LocationForecast[]> {
  const url = forecastUrl({ baseUrl: opts.baseUrl, points, forecastDays: opts.forecastDays, model: opts.model, apiKey: opts.apiKey });
  const doFetch = opts.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, { signal: AbortSignal.timeout(opts.timeoutMs), headers: { accept: 'application/json' } });
  } catch (error) {
    throw new OpenMeteoUnreachable(opts.baseUrl, error);
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`Open-Meteo answered HTTP ${response.status} for ${points.length} points: ${text.slice(0, 300)}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`Open-Meteo answered something that is not JSON: ${text.slice(0, 100)}`);
  }
  return parseForecastResponse(body, points.length);
}

/**
 * Fetches one forecast run for the configured grid and turns it into feed.forecast.v1 chunks. Open-Meteo
 * does not name its model runs, so the run is named after the hour of fetching; a fetch in the same hour
 * re-sends the same run id with a later updated_epoch_ms, which supersedes what changed and is dropped
 * as a duplicate where nothing did.
 */
export async function fetchForecastRun(opts: OpenMeteoOptions): Promise<feedV1.ForecastGrid[]> {
  const now = (opts.clock ?? Date.now)();
  const forecasts: LocationForecast[] = [];
  for (let i = 0; i < opts.points.length; i += opts.locationsPerRequest) {
    forecasts.push(...(await fetchBatch(opts, opts.points.slice(i, i + opts.locationsPerRequest))));
  }
  if (forecasts.length === 0) return [];
  // Batches fetched across midnight may start a day apart: keep the hours every point has.
  const first = Math.max(...forecasts.map((f) => f.firstHourEpochMs));
  const last = Math.min(...forecasts.map((f) => f.firstHourEpochMs + (f.hourCount - 1) * HOUR));
  const hourCount = Math.floor((last - first) / HOUR) + 1;
  if (hourCount < 1) throw new Error('the fetched locations share no common hour');

  const cells: feedV1.GridCell[] = forecasts.map((f, i) => {
    const point = opts.points[i]!;
    const skip = (first - f.firstHourEpochMs) / HOUR;
    return {
      cellId: point.id,
      latitude: point.p.lat,
      longitude: point.p.lng,
      ...(f.elevationM !== undefined ? { elevationM: f.elevationM } : {}),
      series: f.series.map((s) => ({
        metric: enumValue(weatherV1.ForecastMetric, s.metric),
        values: s.values.slice(skip, skip + hourCount),
      })),
    };
  });
  const metrics = Math.max(1, ...cells.map((c) => c.series.length));
  const perChunk = Math.max(1, Math.min(500, Math.floor(CHUNK_BYTES / (metrics * hourCount * 4.3))));
  const chunkCount = Math.ceil(cells.length / perChunk);
  const issue = Math.floor(now / HOUR) * HOUR;
  const runId = `openmeteo-${opts.model.replace(/[^A-Za-z0-9._-]/g, '_')}-${stamp(issue)}`;
  return Array.from({ length: chunkCount }, (_, chunk) => ({
    runId,
    version: 0,
    updatedEpochMs: now,
    model: `open-meteo:${opts.model}`.slice(0, 64),
    issueEpochMs: issue,
    chunkIndex: chunk,
    chunkCount,
    firstHourEpochMs: first,
    hourCount,
    cells: cells.slice(chunk * perChunk, (chunk + 1) * perChunk),
  }));
}

/** Publishes a run chunk by chunk (one record per send: each is close to the broker's size limit). */
export async function publishForecastRun(sink: FeedSink, chunks: readonly feedV1.ForecastGrid[]): Promise<void> {
  for (const chunk of chunks) {
    await publishOn(sink, TopicNames.FeedForecast, [{ key: `${chunk.runId}#${chunk.chunkIndex}`, message: chunk }]);
  }
}

export interface AdapterLoopOptions extends OpenMeteoOptions {
  sink: FeedSink;
  logger: Logger;
  /** Time between runs; 0 fetches once and returns. */
  intervalMs: number;
  signal?: AbortSignal;
}

/**
 * Fetch and publish, then again every interval until the signal aborts. A failed round is logged and
 * the next round tries again: a forecast an hour late is better than an adapter that stopped.
 */
export async function runOpenMeteoAdapter(opts: AdapterLoopOptions): Promise<{ runs: number; failures: number }> {
  let runs = 0;
  let failures = 0;
  for (;;) {
    try {
      const chunks = await fetchForecastRun(opts);
      await publishForecastRun(opts.sink, chunks);
      runs++;
      opts.logger.info({ runId: chunks[0]?.runId, chunks: chunks.length, points: opts.points.length }, 'forecast run published');
    } catch (error) {
      failures++;
      const next = opts.intervalMs > 0 ? `next try in ${Math.round(opts.intervalMs / 60_000)} min` : 'no retry (OPEN_METEO_INTERVAL_MS=0)';
      // The message itself names the cause and what happens next: the terminal of the local stack shows only it.
      if (error instanceof OpenMeteoUnreachable) {
        opts.logger.error(
          { err: error, baseUrl: opts.baseUrl },
          `${error.message}: no real forecast this round, ${next}; other forecasts (the feed simulator locally) stay in use`,
        );
      } else {
        opts.logger.error({ err: error }, `forecast round failed (${error instanceof Error ? error.message : String(error)}); ${next}`);
      }
    }
    if (opts.intervalMs <= 0 || opts.signal?.aborted) return { runs, failures };
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, opts.intervalMs);
        opts.signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            reject(new Error('aborted'));
          },
          { once: true },
        );
      });
    } catch {
      return { runs, failures };
    }
  }
}
