import { MongoClient } from 'mongodb';
import { databaseName } from '@stormhook/mongo';

/**
 * Where lost deliveries stopped, read from the services' databases after a failed scenario (a
 * diagnosis aid, not part of the verdict): no claim in the matcher's notification ledger means the
 * strike never matched (lost in ingest or before the matcher's claim); a claim without its
 * `#published` mark means the matcher never published it; a published one without a notifier
 * delivery was never accepted; otherwise the delivery's status says how far it got.
 */
export async function whereLost(mongoUrl: string, dbPrefix: string, lost: ReadonlyArray<{ strikeId: string; registrationId: string }>): Promise<string> {
  if (lost.length === 0) return '';
  const client = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 10_000 });
  try {
    const ledger = client.db(databaseName('alarm_matcher', dbPrefix)).collection<{ _id: string; registrationId?: string; eventId?: string }>('notifications');
    const claims = await ledger.find({}, { projection: { _id: 1, registrationId: 1, eventId: 1 } }).toArray();
    const claimed = new Map<string, string>();
    for (const c of claims) if (c.eventId && c.registrationId) claimed.set(`${c.eventId}|${c.registrationId}`, c._id);
    const published = new Set(claims.filter((c) => c._id.endsWith('#published')).map((c) => c._id.slice(0, -'#published'.length)));
    const deliveries = await client
      .db(databaseName('notifier', dbPrefix))
      .collection<{ _id: string; status?: string; attemptCount?: number; lastError?: string | null }>('deliveries')
      .find({}, { projection: { _id: 1, status: 1, attemptCount: 1, lastError: 1 } })
      .toArray();
    const byId = new Map(deliveries.map((d) => [d._id, d]));
    const counts = new Map<string, number>();
    const bump = (what: string) => counts.set(what, (counts.get(what) ?? 0) + 1);
    for (const p of lost) {
      // Ingest names a lightning event `ltg_<source id>` (services/ingest validate-lightning).
      const id = claimed.get(`ltg_${p.strikeId}|${p.registrationId}`);
      if (!id) bump('no matcher claim');
      else if (!published.has(id) && !byId.has(id)) bump('claimed, not published');
      else {
        const d = byId.get(id);
        bump(
          d
            ? `notifier delivery ${d.status ?? '?'} after ${d.attemptCount ?? 0} attempts${d.lastError ? ` (${d.lastError.slice(0, 60)})` : ''}`
            : 'published, no notifier delivery',
        );
      }
    }
    const statuses = new Map<string, number>();
    for (const d of deliveries) statuses.set(d.status ?? '?', (statuses.get(d.status ?? '?') ?? 0) + 1);
    const queued = await client.db(databaseName('notifier', dbPrefix)).collection('delivery_queue').countDocuments();
    return `where the lost stopped: ${[...counts].map(([what, n]) => `${n} ${what}`).join(', ')}; notifier holds ${deliveries.length} deliveries (${[...statuses].map(([st, n]) => `${n} ${st}`).join(', ')}), ${queued} queue entries`;
  } catch (error) {
    return `where the lost stopped: unknown (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    await client.close();
  }
}
