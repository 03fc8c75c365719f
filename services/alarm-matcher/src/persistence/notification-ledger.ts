import type { Collection, Db } from 'mongodb';
import type { ClaimResult, NotificationClaim, NotificationLedger } from '../ports/notification-ledger.js';
import { COLLECTIONS } from './collections.js';
import { isDuplicateKeyError } from '@stormhook/mongo';

/**
 * Documents written only by unique inserts and read only by _id (the one lookup FerretDB on SQLite
 * answers from its index; updates and other filters scan the collection): `<notification id>` is
 * the claim, naming the batch it was claimed in; `<batch id>#published` records that a whole batch
 * went out (one document per batch rather than per notification halves the documents written);
 * `<notification id>#published` that a notification sent outside its claim's batch went out; and
 * `<notification id>#take<n>` is the n-th takeover of a claim abandoned by a crash (its generation n).
 */
interface ClaimDocument {
  _id: string;
  registrationId: string;
  eventId: string;
  stage: string;
  claimedAtMs: number;
  /** Absent on claims written before batches had ids: only their own mark counts. */
  batch?: string;
}

const PUBLISHED = '#published';
/**
 * Takeovers are keyed by generation, not by time: `#take1` can be inserted once, ever, so two
 * claimers that find a claim abandoned can never both win, whatever their clocks say. (Keys by stale
 * period, `#retake@<period>`, let one claimer win per period: two claimers either side of a period
 * boundary both published, and so did a replay one period after a takeover whose publish was still
 * in flight.) WARNING: renaming needs a migration; matchers of both key schemes must not run together.
 */
const TAKE = '#take';

/**
 * A claim not published after this long is taken for abandoned (its claimer died between claim and
 * publish) and handed out again. Shorter than the consumer session timeout (10 s), so a record
 * redelivered after a crash finds its claims stale; long enough that a slow publish in progress on
 * another instance is not doubled.
 */
export const CLAIM_STALE_MS = 5_000;

function duplicateIndexes(error: unknown): Set<number> | undefined {
  const raw = (error as { writeErrors?: unknown }).writeErrors;
  const list = (Array.isArray(raw) ? raw : raw ? [raw] : []) as Array<{ index?: number; err?: { index?: number } }>;
  if (list.length === 0) return undefined;
  const found = new Set<number>();
  for (const item of list) {
    const index = item.index ?? item.err?.index;
    if (index === undefined || !isDuplicateKeyError(item)) return undefined;
    found.add(index);
  }
  return found;
}

export class MongoNotificationLedger implements NotificationLedger {
  private readonly collection: Collection<ClaimDocument>;

  constructor(
    db: Db,
    private readonly staleMs = CLAIM_STALE_MS,
  ) {
    this.collection = db.collection<ClaimDocument>(COLLECTIONS.notifications);
  }

  /** Inserts what is not there yet; answers the indexes that were there already. */
  private async insertNew(docs: ClaimDocument[]): Promise<Set<number>> {
    if (docs.length === 0) return new Set();
    try {
      await this.collection.insertMany(docs, { ordered: false });
      return new Set();
    } catch (error) {
      const duplicates = duplicateIndexes(error);
      if (!duplicates) throw error;
      return duplicates;
    }
  }

  /** Whether a mark exists for any of `ids` (batch or notification ids). */
  private async anyPublished(ids: readonly string[]): Promise<boolean> {
    const found = await Promise.all(ids.map((id) => this.collection.findOne({ _id: `${id}${PUBLISHED}` }, { projection: { _id: 1 } })));
    return found.some((doc) => doc !== null);
  }

  async claim(claims: readonly NotificationClaim[], nowMs: number, batchId: string): Promise<ClaimResult> {
    if (claims.length === 0) return { fresh: [], retaken: [] };
    const docs: ClaimDocument[] = claims.map((c) => ({
      _id: c.notificationId,
      registrationId: c.registrationId,
      eventId: c.eventId,
      stage: c.stage,
      claimedAtMs: nowMs,
      batch: batchId,
    }));
    const duplicates = await this.insertNew(docs);
    const fresh = docs.filter((_, i) => !duplicates.has(i)).map((doc) => doc._id);
    const seen = docs.filter((_, i) => duplicates.has(i)).map((doc) => doc._id);
    const takes = (await Promise.all(seen.map((id) => this.takeoverOf(id, nowMs)))).filter((take) => take !== undefined);
    const retakeDocs = takes.map(({ id, generation }) => ({
      _id: `${id}${TAKE}${generation}`,
      registrationId: '',
      eventId: '',
      stage: 'retake',
      claimedAtMs: nowMs,
    }));
    // Several claimers may find the same claim abandoned at once (a replay on two instances during a
    // rebalance): they all insert the same next generation, and the unique insert lets one win.
    const lost = await this.insertNew(retakeDocs);
    return { fresh, retaken: takes.filter((_, i) => !lost.has(i)).map((take) => take.id) };
  }

  /**
   * The generation to insert to take `id` over, when it was never published and neither its claim
   * nor its latest takeover is younger than the stale time (a takeover's publish may be in flight
   * too). Reads by _id only; takeovers are rare (a crash), so the walk over generations is short.
   */
  private async takeoverOf(id: string, nowMs: number): Promise<{ id: string; generation: number } | undefined> {
    const claim = await this.collection.findOne({ _id: id }, { projection: { claimedAtMs: 1, batch: 1 } });
    if (await this.anyPublished(claim?.batch ? [id, claim.batch] : [id])) return undefined;
    // Takeovers come after their claim: a young claim (the common case, a race of live claimers) is
    // in flight whatever follows, and costs no more reads than before generations.
    if (claim && claim.claimedAtMs > nowMs - this.staleMs) return undefined;
    // A claim released after a failed publish and claimed afresh is younger than its old takeovers.
    let latestMs = claim?.claimedAtMs ?? 0;
    let generation = 1;
    for (;;) {
      const take = await this.collection.findOne({ _id: `${id}${TAKE}${generation}` }, { projection: { claimedAtMs: 1 } });
      if (!take) break;
      latestMs = Math.max(latestMs, take.claimedAtMs);
      generation += 1;
    }
    return latestMs <= nowMs - this.staleMs ? { id, generation } : undefined;
  }

  async markPublished(ids: readonly string[], nowMs: number): Promise<void> {
    await this.insertNew(ids.map((id) => ({ _id: `${id}${PUBLISHED}`, registrationId: '', eventId: '', stage: 'published', claimedAtMs: nowMs })));
  }

  async release(notificationIds: readonly string[]): Promise<void> {
    if (notificationIds.length === 0) return;
    // Rare (a failed publish): the slow delete path of FerretDB is fine here.
    await this.collection.deleteMany({ _id: { $in: [...notificationIds] } });
  }

  async isPublished(notificationId: string): Promise<boolean> {
    const claim = await this.collection.findOne({ _id: notificationId }, { projection: { batch: 1 } });
    return this.anyPublished(claim?.batch ? [notificationId, claim.batch] : [notificationId]);
  }

  /** Claims older than the retention (longer than any replay window of the weather topics). */
  async purgeClaimedBefore(ms: number): Promise<number> {
    return (await this.collection.deleteMany({ claimedAtMs: { $lt: ms } })).deletedCount;
  }
}
