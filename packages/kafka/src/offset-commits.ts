/** One commit entry: `offset` is the next offset to read (last finished + 1), Kafka's convention. */
export interface PartitionOffset {
  topic: string;
  partition: number;
  offset: string;
}

/** Sends one offset-commit request; rejects when the broker did not take it. */
export type CommitSender = (offsets: readonly PartitionOffset[]) => Promise<void>;

/**
 * When finished work is committed. A commit is a broker round trip; per record it capped our consumer
 * at a small fraction of Kafka's own. Per partition, a commit goes out once `everyRecords` records
 * are finished since the last one, or `everyMs` after it; the consumer also commits on revoke, stop
 * and before it gives up. A crash re-delivers at most about this much finished work (at-least-once).
 */
export interface CommitPolicy {
  everyMs: number;
  everyRecords: number;
}

export const DEFAULT_COMMIT_POLICY: CommitPolicy = { everyMs: 1_000, everyRecords: 1_000 };

interface PartitionState {
  topic: string;
  partition: number;
  /** Next offset after the finished prefix. */
  finished: bigint;
  /** Next offset as last committed (or sent) by this member; -1n before any. */
  committed: bigint;
  /** Finished records since the last commit. */
  count: number;
  lastCommitAt: number;
}

/**
 * The finished prefix of each partition and what of it is committed. Callers report only the
 * unbroken prefix (every record before the offset is finished), so whatever is committed is done:
 * at-least-once holds however the records were handled. Commits are serialised, so offsets reach the
 * broker in order and a later commit never moves a partition back.
 */
export class OffsetCommits {
  private readonly partitions = new Map<string, PartitionState>();
  private chain: Promise<void> = Promise.resolve();
  /** Commit requests sent (tests and logs). */
  requests = 0;

  constructor(
    private readonly policy: CommitPolicy,
    private readonly clock: () => number = Date.now,
  ) {
    for (const [name, value] of Object.entries(policy)) {
      if (!Number.isInteger(value) || value < 1) throw new Error(`commit policy ${name} must be a positive integer, got ${value}`);
    }
  }

  /** The record at `offset` and every record before it in the partition are finished. */
  finished(topic: string, partition: number, offset: string): void {
    const id = `${topic}\u0000${partition}`;
    const next = BigInt(offset) + 1n;
    const state = this.partitions.get(id);
    if (state === undefined) {
      this.partitions.set(id, { topic, partition, finished: next, committed: -1n, count: 1, lastCommitAt: 0 });
      return;
    }
    // A re-read after a rejoin starts from the committed offset again; never go back.
    if (next <= state.finished) return;
    state.count += Number(next - state.finished);
    state.finished = next;
  }

  /** True when some partition has finished work old or large enough to commit now. */
  isDue(): boolean {
    const now = this.clock();
    for (const state of this.partitions.values()) if (this.due(state, now)) return true;
    return false;
  }

  /** Commits the partitions that are due (see {@link CommitPolicy}). */
  commitDue(send: CommitSender): Promise<void> {
    return this.enqueue(send, (state, now) => this.due(state, now));
  }

  /** Commits every finished prefix not yet committed (revoke, stop, before giving up). */
  commitAll(send: CommitSender): Promise<void> {
    return this.enqueue(send, () => true);
  }

  /** Forgets partitions this member no longer owns: their next owner reads from the last commit. */
  retain(owns: (topic: string, partition: number) => boolean): void {
    for (const [id, state] of this.partitions) if (!owns(state.topic, state.partition)) this.partitions.delete(id);
  }

  /** Forgets everything (a fresh client starts from the committed offsets). */
  clear(): void {
    this.partitions.clear();
  }

  private due(state: PartitionState, now: number): boolean {
    if (state.finished <= state.committed) return false;
    return state.count >= this.policy.everyRecords || now - state.lastCommitAt >= this.policy.everyMs;
  }

  private enqueue(send: CommitSender, select: (state: PartitionState, now: number) => boolean): Promise<void> {
    const run = this.chain.then(async () => {
      const now = this.clock();
      const chosen = [...this.partitions.values()].filter((s) => s.finished > s.committed && select(s, now));
      if (chosen.length === 0) return;
      const sent = chosen.map((s) => ({ state: s, offset: s.finished }));
      this.requests++;
      await send(sent.map(({ state, offset }) => ({ topic: state.topic, partition: state.partition, offset: offset.toString() })));
      for (const { state, offset } of sent) {
        if (offset > state.committed) state.committed = offset;
        // Records finished while the request was out count towards the next commit.
        state.count = Number(state.finished - offset);
        state.lastCommitAt = now;
      }
    });
    // A failed commit leaves its partitions pending for the next one; the chain itself goes on.
    this.chain = run.catch(() => undefined);
    return run;
  }
}
