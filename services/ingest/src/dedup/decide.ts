/** What the seen-store holds about one source record: the last revision ingest published. */
export interface SeenEntry {
  /** Our revision counter: 1 for the first published content, +1 for each published change. */
  revision: number;
  /** SHA-256 of the normalised content (see contentHash). */
  contentHash: string;
  sourceVersion: number;
  sourceUpdatedEpochMs: number;
}

/** The de-duplication view of an incoming record. */
export interface IncomingRevision {
  contentHash: string;
  sourceVersion: number;
  sourceUpdatedEpochMs: number;
}

export type Decision =
  /** Never seen: publish as revision 1. */
  | { kind: 'first' }
  /** Same content already published: drop. */
  | { kind: 'duplicate' }
  /** New content that supersedes the stored one: publish as the next revision. */
  | { kind: 'supersede'; revision: number }
  /** An older version arriving late: drop, the newer one stands. */
  | { kind: 'stale' }
  /** Same explicit version, different content: the publisher broke its own versioning. */
  | { kind: 'conflict'; reason: string };

/** Orders publisher revisions by version, then last-change time. */
export function compareSourceRevision(a: IncomingRevision, b: Pick<SeenEntry, 'sourceVersion' | 'sourceUpdatedEpochMs'>): number {
  if (a.sourceVersion !== b.sourceVersion) return a.sourceVersion < b.sourceVersion ? -1 : 1;
  if (a.sourceUpdatedEpochMs !== b.sourceUpdatedEpochMs) return a.sourceUpdatedEpochMs < b.sourceUpdatedEpochMs ? -1 : 1;
  return 0;
}

/**
 * The de-duplication rule of the feed contract (FEEDS.md, "Re-sends and updates"):
 * identical content is never published twice; different content with a higher (version,
 * updated time) supersedes; a lower one is stale. Publishers that version nothing get
 * last-received-wins, since otherwise a correction could never get through.
 */
export function decide(stored: SeenEntry | null, incoming: IncomingRevision): Decision {
  if (stored === null) return { kind: 'first' };
  if (stored.contentHash === incoming.contentHash) return { kind: 'duplicate' };
  const order = compareSourceRevision(incoming, stored);
  if (order < 0) return { kind: 'stale' };
  if (order === 0 && (incoming.sourceVersion !== 0 || incoming.sourceUpdatedEpochMs !== 0)) {
    const which = incoming.sourceVersion !== 0 ? `version ${incoming.sourceVersion}` : `updated_epoch_ms ${incoming.sourceUpdatedEpochMs}`;
    return { kind: 'conflict', reason: `${which} was already received with different content; raise version for a change` };
  }
  return { kind: 'supersede', revision: stored.revision + 1 };
}
