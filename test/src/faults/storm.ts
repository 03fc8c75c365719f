import { EventTypes, type EventToPublish } from '@stormhook/kafka';
import { feedV1 } from '@stormhook/proto';
import { sleep } from './world.js';

export interface Point {
  lat: number;
  lng: number;
}

export interface BBox {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

/**
 * Where the background storm falls: a 1.0 x 1.4 degree box in central Anatolia (Konya). Seeded
 * alarms keep `STORM_CLEARANCE_DEG` away from it, so background strikes exercise every stage up to
 * the matcher's index without producing webhooks.
 */
export const STORM_BOX: BBox = { minLng: 32.2, minLat: 37.6, maxLng: 33.6, maxLat: 38.6 };
/** Wider than the largest seeded radius (10 km), so no seeded circle reaches into the storm box. */
export const STORM_CLEARANCE_DEG = 0.2;

export function widened(box: BBox, deg: number): BBox {
  return { minLng: box.minLng - deg, minLat: box.minLat - deg, maxLng: box.maxLng + deg, maxLat: box.maxLat + deg };
}

/** A strike as a data publisher sends it on the raw feed topic `feed.lightning.v1`. */
export function feedStrike(sourceEventId: string, point: Point, timeEpochMs = Date.now()): EventToPublish {
  const value = feedV1.LightningStrike.encode({
    sourceEventId,
    version: 0,
    updatedEpochMs: 0,
    timeEpochMs,
    type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
    latitude: point.lat,
    longitude: point.lng,
    peakCurrentAmperes: -24_000,
    multiplicity: 2,
  });
  return { key: sourceEventId, value, eventType: EventTypes.LightningStrike };
}

/** A deterministic generator in [0, 1) (a storm is the same from run to run). */
export function lcg(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/** Uniform points in `box`, from a seeded generator. */
export function uniformIn(box: BBox, seed: number): () => Point {
  const random = lcg(seed);
  return () => ({ lat: box.minLat + random() * (box.maxLat - box.minLat), lng: box.minLng + random() * (box.maxLng - box.minLng) });
}

export interface StormOptions {
  /** Offered strikes a second. */
  rate: number;
  seconds: number;
  /** Strikes that must cause a webhook, spread evenly over the storm; the last record is the last of them. */
  targets: ReadonlyArray<{ point: Point }>;
  /** Source-id prefix of this storm's strikes (unique per run, so ingest de-duplication does not drop them). */
  idPrefix: string;
  /** Where each background strike falls. */
  background: () => Point;
  /** Sends one batch on the feed topic; rejects when the broker did not take it. */
  publish: (events: EventToPublish[]) => Promise<void>;
  /** At most this many records in one send (a publisher that fell behind catches up in large sends). */
  maxBatch?: number;
  /** How long one batch is retried (a broker restart) before the storm gives up. */
  retryForMs?: number;
}

export interface StormStats {
  offered: number;
  published: number;
  /** Seconds from the first send to the last acknowledged one. */
  seconds: number;
  offeredRate: number;
  /** published / seconds. */
  achievedRate: number;
  /** The most records the publisher was ever behind its schedule (0 means it kept up). */
  maxBehind: number;
  sends: number;
  /** Sends the broker refused and that were retried. */
  failedSends: number;
}

/**
 * Publishes a storm on the raw feed topic at a steady offered rate: the records due by the clock
 * go out in one send every ~10 ms, so the publisher keeps up at thousands a second. Target strikes
 * (one per alarm under test) are interleaved evenly; `publishedAt` holds when each target's send
 * began (the start of a benchmark's latency). A refused send is retried with the same records,
 * so strikes are delayed by a broker outage, never dropped.
 */
export class Storm {
  /** Target index -> its strike's source id. */
  readonly targetIds: string[] = [];
  /** Target strike source id -> epoch ms when the send carrying it began (the successful try). */
  readonly publishedAt = new Map<string, number>();
  readonly total: number;
  private stopped = false;
  private readonly targetAt: Map<number, number>;

  constructor(private readonly options: StormOptions) {
    this.total = Math.round(options.rate * options.seconds);
    const count = options.targets.length;
    if (count > this.total) throw new Error(`a storm of ${this.total} strikes cannot carry ${count} target strikes`);
    // Target k is record floor((k + 1) * total / count) - 1: evenly spread, the last record last.
    this.targetAt = new Map(options.targets.map((_, k) => [Math.floor(((k + 1) * this.total) / count) - 1, k]));
    for (let k = 0; k < count; k++) this.targetIds.push(`${options.idPrefix}-t${k}`);
  }

  /** Ends the storm early (the records sent so far stay sent). */
  stop(): void {
    this.stopped = true;
  }

  async run(): Promise<StormStats> {
    const { rate, maxBatch = 2_000, retryForMs = 180_000 } = this.options;
    let sent = 0;
    let sends = 0;
    let failedSends = 0;
    let maxBehind = 0;
    const t0 = Date.now();
    let lastAck = t0;
    while (sent < this.total && !this.stopped) {
      const due = Math.min(this.total, Math.floor(((Date.now() - t0) / 1000) * rate));
      if (due <= sent) {
        await sleep(Math.max(1, Math.min(10, Math.ceil(((sent + 1) / rate) * 1000 - (Date.now() - t0)))));
        continue;
      }
      maxBehind = Math.max(maxBehind, due - sent);
      const upTo = Math.min(due, sent + maxBatch);
      const batch: EventToPublish[] = [];
      const targets: string[] = [];
      for (let i = sent; i < upTo; i++) {
        const k = this.targetAt.get(i);
        if (k !== undefined) {
          batch.push(feedStrike(this.targetIds[k]!, this.options.targets[k]!.point));
          targets.push(this.targetIds[k]!);
        } else {
          batch.push(feedStrike(`${this.options.idPrefix}-b${i}`, this.options.background()));
        }
      }
      const giveUpAt = Date.now() + retryForMs;
      for (;;) {
        const at = Date.now();
        try {
          sends++;
          await this.options.publish(batch);
          for (const id of targets) this.publishedAt.set(id, at);
          break;
        } catch (error) {
          failedSends++;
          if (Date.now() > giveUpAt || this.stopped) throw error;
          await sleep(500);
        }
      }
      sent = upTo;
      lastAck = Date.now();
    }
    const seconds = (lastAck - t0) / 1000;
    return { offered: this.total, published: sent, seconds, offeredRate: rate, achievedRate: seconds > 0 ? sent / seconds : 0, maxBehind, sends, failedSends };
  }
}

export function describeStorm(s: StormStats): string {
  return `${s.published.toLocaleString('en')}/${s.offered.toLocaleString('en')} strikes published at ${Math.round(s.achievedRate)}/s (offered ${s.offeredRate}/s) over ${s.seconds.toFixed(1)} s in ${s.sends} sends (${s.failedSends} refused and retried), at most ${s.maxBehind.toLocaleString('en')} records behind schedule`;
}
