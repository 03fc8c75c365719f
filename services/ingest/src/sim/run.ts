import { setTimeout as sleep } from 'node:timers/promises';
import type { EventToPublish, TopicName } from '@stormhook/kafka';
import type { FeedSink } from '../feed-sink.js';
import { DEFAULT_SIM_OPTIONS, type ForecastOptions, type SimOptions } from './options.js';
import { WeatherSimulator, type SimRecord } from './simulate.js';

export type { FeedSink };

export interface RunSimulatorOptions {
  sink: FeedSink;
  /** Weather options; unset ones take DEFAULT_SIM_OPTIONS. */
  sim?: Partial<Omit<SimOptions, 'forecast'>> & { forecast?: Partial<ForecastOptions> };
  /**
   * Simulated seconds per wall-clock second for ticks in the past; 0 = as fast as possible. Never
   * ahead of real time, so once the past is published the run goes on live whatever the rate.
   * Default 0: the backfill of a live run goes out at once (at rate 1 a live run stayed its whole
   * backfill behind real time, and a first start had no radar scan for minutes).
   */
  rate?: number;
  /** First simulated instant; default now minus the duration (or minus the backfill when running forever). */
  startMs?: number;
  /** Simulated time to cover; default forever (until the signal aborts). */
  durationMs?: number;
  /** Without a start or duration: how much recent weather to publish at once before going live. Default 30 min. */
  backfillMs?: number;
  /** Publish the latest forecast run before the first tick, so readers have a forecast at once. Default true. */
  latestForecastFirst?: boolean;
  signal?: AbortSignal;
  clock?: () => number;
  /** Told after each tick is published. */
  onTick?: (tick: { timeMs: number; records: number }) => void;
}

export interface SimSummary {
  fromMs: number;
  toMs: number;
  ticks: number;
  records: Partial<Record<TopicName, number>>;
  bytes: number;
}

/** Kafka refuses record batches over 1 MB by default; forecast chunks are big, so sends are split by size. */
const MAX_SEND_BYTES = 900_000;

async function publishAll(sink: FeedSink, records: readonly SimRecord[], summary: SimSummary): Promise<void> {
  const byTopic = new Map<TopicName, SimRecord[]>();
  for (const r of records) byTopic.set(r.topic, [...(byTopic.get(r.topic) ?? []), r]);
  for (const [topic, list] of byTopic) {
    let batch: EventToPublish[] = [];
    let size = 0;
    const flush = async () => {
      if (batch.length > 0) await sink.publish(topic, batch);
      batch = [];
      size = 0;
    };
    for (const r of list) {
      if (size + r.value.length > MAX_SEND_BYTES) await flush();
      batch.push({ key: r.key, value: r.value, eventType: r.eventType });
      size += r.value.length;
      summary.records[topic] = (summary.records[topic] ?? 0) + 1;
      summary.bytes += r.value.length;
    }
    await flush();
  }
}

export function resolveSimOptions(partial: RunSimulatorOptions['sim'] = {}): SimOptions {
  return { ...DEFAULT_SIM_OPTIONS, ...partial, forecast: { ...DEFAULT_SIM_OPTIONS.forecast, ...partial.forecast } };
}

/**
 * Runs the feed simulator: generates tick after tick and publishes each to the raw feed topics.
 * Ticks whose time is still in the future wait for it (ingest rejects records from the future);
 * past ticks go out at `rate` times real speed. Resolves with what was published when the duration
 * is covered or the signal aborts.
 */
export async function runSimulator(opts: RunSimulatorOptions): Promise<SimSummary> {
  const clock = opts.clock ?? Date.now;
  const duration = opts.durationMs ?? Number.POSITIVE_INFINITY;
  const rate = opts.rate ?? 0;
  if (!(rate >= 0)) throw new Error('rate must be 0 or more');
  const simulator = new WeatherSimulator(resolveSimOptions(opts.sim));
  const wallStart = clock();
  const startMs = opts.startMs ?? wallStart - (Number.isFinite(duration) ? duration : (opts.backfillMs ?? 30 * 60_000));
  const endMs = startMs + duration;
  const summary: SimSummary = { fromMs: startMs, toMs: startMs, ticks: 0, records: {}, bytes: 0 };
  const signal = opts.signal;

  const first = simulator.alignUp(startMs);
  const every = simulator.opts.forecast.everyMs;
  if ((opts.latestForecastFirst ?? true) && simulator.opts.forecast.enabled && Math.floor(startMs / every) * every < first) {
    await publishAll(opts.sink, simulator.latestRunAt(startMs), summary);
  }

  for (let t = first; t < endMs; t += simulator.opts.tickMs) {
    const due = Math.max(t, rate > 0 ? wallStart + (t - startMs) / rate : Number.NEGATIVE_INFINITY);
    const wait = due - clock();
    if (wait > 0) {
      try {
        await sleep(wait, undefined, signal ? { signal } : {});
      } catch {
        break; // aborted
      }
    }
    if (signal?.aborted) break;
    const records = simulator.tick(t);
    await publishAll(opts.sink, records, summary);
    summary.ticks++;
    summary.toMs = t;
    opts.onTick?.({ timeMs: t, records: records.length });
  }
  return summary;
}
