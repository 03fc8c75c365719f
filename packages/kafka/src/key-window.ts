import type { KafkaMessage } from 'kafkajs';
import type { ProcessResult } from './record-processor.js';

export interface KeyWindowDeps {
  /** Records handled at once; records with the same key always wait for the one before them. */
  limit: number;
  process(message: KafkaMessage): Promise<ProcessResult>;
  /** Commits up to and including the record at `offset`; called in offset order. */
  commit(offset: string): Promise<void>;
  /** Polled before each record is started: true ends the batch early (stop, rebalance, fatal). */
  shouldStop(): boolean;
  /** False once the partition may have moved to another member (a commit would be refused). */
  canCommit(): boolean;
  /** Keeps the group membership alive while records run. */
  heartbeat(): Promise<void>;
  /** Commit once this many records past the last commit are done (default 100). */
  commitEvery?: number;
  /** How often to heartbeat while waiting for records in flight (default 1,000 ms). */
  heartbeatEveryMs?: number;
}

export type KeyWindowExit = { kind: 'done' } | { kind: 'abandoned' } | { kind: 'fatal'; error: Error };

/**
 * Handles one partition's batch with up to `limit` records in flight, keeping the order of records
 * that share a key (Kafka's ordering promise is per key; the partition order across keys is an
 * accident of hashing). Offsets are committed only for the unbroken prefix of finished records, so a
 * stop or crash re-reads everything from the first unfinished one: at-least-once, as one by one.
 * A record whose predecessor on the same key did not finish is not started.
 */
export async function runKeyWindow(messages: readonly KafkaMessage[], deps: KeyWindowDeps): Promise<KeyWindowExit> {
  const commitEvery = deps.commitEvery ?? 100;
  const finished: boolean[] = new Array<boolean>(messages.length).fill(false);
  const tails = new Map<string, Promise<ProcessResult>>();
  const inFlight = new Set<Promise<void>>();
  let exit: KeyWindowExit = { kind: 'done' };
  /** Index of the last record whose offset is committed. */
  let committed = -1;

  const donePrefix = (): number => {
    let last = committed;
    while (last + 1 < messages.length && finished[last + 1]) last++;
    return last;
  };
  const commitPrefix = async (): Promise<void> => {
    const last = donePrefix();
    if (last <= committed) return;
    committed = last;
    await deps.commit(messages[last]!.offset);
  };
  const settle = (result: ProcessResult, index: number): void => {
    if (result.kind === 'done') finished[index] = true;
    else if (result.kind === 'fatal' && exit.kind !== 'fatal') exit = result;
    else if (result.kind === 'abandoned' && exit.kind === 'done') exit = result;
  };

  /**
   * Waits for `work`, heartbeating meanwhile. Records in flight may take longer than the session
   * timeout together (a handler under back-pressure, a slow database): without heartbeats the member
   * is dropped from the group mid-batch, its partitions move, and every record in flight is read
   * again (seen under storm load: the notifier's group stalled for 95 s).
   */
  const heartbeatEveryMs = deps.heartbeatEveryMs ?? 1_000;
  const waitBeating = async (work: Promise<unknown>): Promise<void> => {
    let settled = false;
    const done = work.then(
      () => (settled = true),
      () => (settled = true),
    );
    while (!settled) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise<void>((resolve) => (timer = setTimeout(resolve, heartbeatEveryMs)))]);
      clearTimeout(timer);
      if (!settled) await deps.heartbeat();
    }
  };

  for (let i = 0; i < messages.length; i++) {
    while (inFlight.size >= deps.limit) await waitBeating(Promise.race(inFlight));
    if (exit.kind !== 'done' || deps.shouldStop()) break;
    if (donePrefix() - committed >= commitEvery) await commitPrefix();
    const message = messages[i]!;
    const key = message.key === null || message.key === undefined ? undefined : message.key.toString('latin1');
    const before = key === undefined ? undefined : tails.get(key);
    const run = (async (): Promise<ProcessResult> => {
      if (before && (await before).kind !== 'done') return { kind: 'abandoned' };
      return deps.process(message);
    })();
    if (key !== undefined) tails.set(key, run);
    const tracked: Promise<void> = run
      .then(
        (result) => settle(result, i),
        (error: unknown) => settle({ kind: 'fatal', error: error instanceof Error ? error : new Error(String(error)) }, i),
      )
      .finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    await deps.heartbeat();
  }
  await waitBeating(Promise.all(inFlight));
  if (deps.canCommit()) await commitPrefix();
  return exit;
}
