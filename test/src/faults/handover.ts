import type { Admin } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { databaseName } from '@stormhook/mongo';
import type { LagGroup } from '../bench/consumer-lag.js';
import { sleep } from './world.js';

/** How long a consumer group took to consume again every partition that had work after a kill. */
export interface Handover {
  group: string;
  /** Seconds from the kill until the last such partition's committed offset moved; undefined if it never did. */
  seconds: number | undefined;
  /** Partitions with records waiting at the kill or arriving after it. */
  partitions: number;
}

/**
 * Watches `group`'s committed offsets from the moment of a kill. A partition counts once it has records
 * past its committed offset (waiting at the kill or published later); it is handed over once its
 * committed offset moved past where it stood at the kill. The survivor's own partitions move at once;
 * the killed member's move only after the group noticed it gone and rebalanced (its session timeout),
 * so the last one to move measures the handover.
 */
export async function watchHandover(admin: Admin, group: LagGroup, killAtMs: number, timeoutMs: number): Promise<Handover> {
  const committed = async () => {
    const [answer] = await admin.fetchOffsets({ groupId: group.groupId, topics: [group.topic] });
    return new Map((answer?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
  };
  const ends = async () => new Map((await admin.fetchTopicOffsets(group.topic)).map((p) => [p.partition, Number(p.offset)]));
  const atKill = await committed();
  const waiting = new Set<number>();
  const moved = new Set<number>();
  let lastMoveMs: number | undefined;
  const deadline = killAtMs + timeoutMs;
  while (Date.now() < deadline) {
    const [now, end] = await Promise.all([committed(), ends()]);
    for (const [partition, endOffset] of end) {
      const from = atKill.get(partition) ?? -1;
      if (endOffset > Math.max(from, 0)) waiting.add(partition);
      if (waiting.has(partition) && !moved.has(partition) && (now.get(partition) ?? -1) > from) {
        moved.add(partition);
        lastMoveMs = Date.now();
      }
    }
    // Done once some work was seen and every partition that had some moved.
    if (waiting.size > 0 && moved.size === waiting.size) break;
    await sleep(500);
  }
  const done = waiting.size > 0 && moved.size === waiting.size;
  return { group: group.name, seconds: done && lastMoveMs !== undefined ? (lastMoveMs - killAtMs) / 1000 : undefined, partitions: waiting.size };
}

export function describeHandover(h: Handover): string {
  return h.seconds === undefined
    ? `${h.group}: NOT handed over (${h.partitions} partitions with work)`
    : `${h.group} ${h.seconds.toFixed(1)} s (${h.partitions} partitions)`;
}

/**
 * The deliveries a notifier instance held at `atMs`: first attempts in its unexpired holds and later
 * attempts under its unexpired leases (notifier persistence: delivery_holds, delivery_leases). A
 * killed instance's share is taken over once those run out.
 */
export async function inFlightDeliveries(mongoUrl: string, dbPrefix: string, owner: string, atMs: number): Promise<string[]> {
  const client = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 10_000 });
  try {
    const db = client.db(databaseName('notifier', dbPrefix));
    const at = new Date(atMs);
    const holds = await db
      .collection<{ owner: string; leaseUntil: Date; deliveries: Array<{ deliveryId: string }> }>('delivery_holds')
      .find({ owner, leaseUntil: { $gt: at } })
      .toArray();
    const leases = await db
      .collection<{ owner: string; leaseUntil: Date; deliveryId: string }>('delivery_leases')
      .find({ owner, leaseUntil: { $gt: at } }, { projection: { deliveryId: 1 } })
      .toArray();
    return [...new Set([...holds.flatMap((h) => h.deliveries.map((d) => d.deliveryId)), ...leases.map((l) => l.deliveryId)])];
  } finally {
    await client.close();
  }
}
