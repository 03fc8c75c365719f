import type { Admin, Kafka } from 'kafkajs';

/** A consumer group and the (physical) topic whose backlog it is measured on. */
export interface LagGroup {
  /** Short name in reports: ingest, matcher, notifier. */
  name: string;
  groupId: string;
  topic: string;
}

export interface LagSample {
  atMs: number;
  /** Group name -> records not yet committed; absent when the broker did not answer. */
  lags: Record<string, number | undefined>;
}

export interface LagSummary {
  name: string;
  samples: number;
  max: number;
  last: number | undefined;
  /** Least-squares slope over the window, records per second (positive = the backlog grows). */
  slopePerSecond: number;
  /** The backlog grew over the window: see {@link summarizeLag}. */
  grows: boolean;
}

/**
 * Samples the committed-offset lag of consumer groups on an interval (admin fetchOffsets against the
 * topics' end offsets): the backlog each stage leaves behind. With periodic offset commits a group
 * that keeps up still shows a small, flat lag (records finished but not committed yet); a stage that
 * does not keep up shows a lag that climbs for as long as the load lasts.
 */
export class LagMonitor {
  readonly samples: LagSample[] = [];
  private admin: Admin | undefined;
  private timer: NodeJS.Timeout | undefined;
  private sampling: Promise<unknown> | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly groups: readonly LagGroup[],
    private readonly intervalMs = 5_000,
  ) {}

  async start(): Promise<void> {
    this.admin = this.kafka.admin();
    await this.admin.connect();
    await this.sample();
    this.timer = setInterval(() => {
      this.sampling ??= this.sample().finally(() => (this.sampling = undefined));
    }, this.intervalMs);
  }

  /** One sample now (also taken on the interval); a group the broker did not answer for is left out. */
  async sample(): Promise<LagSample> {
    const lags: Record<string, number | undefined> = {};
    await Promise.all(
      this.groups.map(async (g) => {
        lags[g.name] = await this.lag(g).catch(() => undefined);
      }),
    );
    const sample = { atMs: Date.now(), lags };
    this.samples.push(sample);
    return sample;
  }

  /** Records a (physical) topic holds: the sum of its partitions' end offsets, for topics that started empty. */
  async records(topic: string): Promise<number> {
    const ends = await this.admin!.fetchTopicOffsets(topic);
    return ends.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
  }

  private async lag(g: LagGroup): Promise<number> {
    const admin = this.admin!;
    const [ends, [committed]] = await Promise.all([admin.fetchTopicOffsets(g.topic), admin.fetchOffsets({ groupId: g.groupId, topics: [g.topic] })]);
    // A partition without a committed offset (-1) has its whole content outstanding.
    const done = new Map((committed?.partitions ?? []).map((p) => [p.partition, Math.max(0, Number(p.offset))]));
    return ends.reduce((sum, p) => sum + Math.max(0, Number(p.high) - (done.get(p.partition) ?? 0)), 0);
  }

  /**
   * The lag of `name` over samples taken in [fromMs, toMs]. It "grows" when its slope exceeds
   * `growthPerSecond` AND the last sample is above `floor` records: a flat backlog of in-flight
   * work (periodic commits) is not growth, a backlog that climbs for the whole load is.
   */
  summary(name: string, window: LagWindow): LagSummary {
    return summarizeLag(this.samples, name, window);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sampling;
    await this.admin?.disconnect().catch(() => undefined);
  }
}

export interface LagWindow {
  fromMs?: number;
  toMs?: number;
  /** Slope above which the backlog counts as growing, records per second. */
  growthPerSecond: number;
  /** ... and only when the last sample holds more than this many records. */
  floor: number;
}

/**
 * The lag of `name` over samples taken in [fromMs, toMs]. It "grows" when its least-squares slope
 * exceeds `growthPerSecond` AND the last sample is above `floor` records: a flat backlog of
 * in-flight work (periodic commits) is not growth, a backlog that climbs for the whole load is.
 */
export function summarizeLag(samples: readonly LagSample[], name: string, window: LagWindow): LagSummary {
  const points = samples
    .filter((s) => s.atMs >= (window.fromMs ?? 0) && s.atMs <= (window.toMs ?? Infinity))
    .map((s) => ({ t: s.atMs / 1000, lag: s.lags[name] }))
    .filter((p): p is { t: number; lag: number } => p.lag !== undefined);
  const max = points.reduce((m, p) => Math.max(m, p.lag), 0);
  const last = points.at(-1)?.lag;
  const slopePerSecond = slope(points);
  return { name, samples: points.length, max, last, slopePerSecond, grows: slopePerSecond > window.growthPerSecond && (last ?? 0) > window.floor };
}

function slope(points: ReadonlyArray<{ t: number; lag: number }>): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const meanT = points.reduce((s, p) => s + p.t, 0) / n;
  const meanL = points.reduce((s, p) => s + p.lag, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - meanT) * (p.lag - meanL);
    den += (p.t - meanT) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export function describeLag(s: LagSummary): string {
  return `${s.name} max ${s.max.toLocaleString('en')}, last ${s.last === undefined ? '-' : s.last.toLocaleString('en')}, slope ${s.slopePerSecond >= 0 ? '+' : ''}${Math.round(s.slopePerSecond)}/s${s.grows ? ' (GROWING)' : ''}`;
}

/**
 * The longest stretch in which `name` had records waiting and its lag never went down: the group
 * committed nothing (or less than arrived) for that long. Minutes of it while the process is idle
 * mean a stuck consumer, not a slow one.
 */
export function longestStall(samples: readonly LagSample[], name: string): { seconds: number; waiting: number } {
  let best = { seconds: 0, waiting: 0 };
  let since: LagSample | undefined;
  let previous: number | undefined;
  for (const s of samples) {
    const lag = s.lags[name];
    if (lag === undefined) continue;
    if (lag === 0 || (previous !== undefined && lag < previous)) since = lag === 0 ? undefined : s;
    else since ??= s;
    previous = lag;
    if (since && (s.atMs - since.atMs) / 1000 > best.seconds) best = { seconds: (s.atMs - since.atMs) / 1000, waiting: lag };
  }
  return best;
}
