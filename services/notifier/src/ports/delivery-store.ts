import type { AttemptTrigger, Delivery, DeliveryStatus, FailureReason } from '../domain/delivery.js';
import type { LoggedAttempt } from '../domain/delivery-state.js';
import type { DeliveryPosition } from '../domain/delivery-cursor.js';
import type { FailureClass } from '../domain/failure-class.js';
import type { RecoveryCandidate } from '../domain/recovery.js';

/**
 * The work index: one small entry per unfinished delivery, holding its schedule and lease. Finished
 * deliveries leave it, so finding due work never scans the delivery history.
 */
export interface QueueEntry {
  deliveryId: string;
  accountId: string;
  endpointId: string;
  dueAt: Date;
  trigger: AttemptTrigger;
  /** A manual redelivery of a finished delivery: one attempt, no automatic retries after it. */
  single: boolean;
  /**
   * Stored: the number the next attempt will carry. Claimed: the number this claim took (attempt
   * numbers survive crashes, and each is claimed by inserting its unique lease document).
   */
  attempt: number;
  /** Manual attempts asked for while the delivery was pending; `attempt - manualAttempts` is the scheduled count. */
  manualAttempts: number;
  /** Dead with its DeliveryFailed not yet published: kept here so the outbox sweep never scans history. */
  outbox: boolean;
  /**
   * Set on a fresh delivery's entry by the instance that accepted it: inserting the entry is its claim
   * of attempt `attempt`, held until `leaseUntil`; after that, claimers take the next number.
   */
  leaseOwner: string | null;
  leaseUntil: Date | null;
  /** A recovery's one attempt of a finished delivery (`single`): the recovery job's id. */
  recovery?: string | undefined;
}

/** The queue entry of `delivery`'s next attempt at `endpointId`, due at `dueAt`: attempt 1, scheduled, unleased, unless overridden. */
export function queueEntry(delivery: Pick<Delivery, 'id' | 'accountId'>, endpointId: string, dueAt: Date, overrides: Partial<QueueEntry>): QueueEntry {
  return {
    deliveryId: delivery.id,
    accountId: delivery.accountId,
    endpointId,
    dueAt,
    trigger: 'scheduled',
    single: false,
    attempt: 1,
    manualAttempts: 0,
    outbox: false,
    leaseOwner: null,
    leaseUntil: null,
    ...overrides,
  };
}

/** A queue entry as its attempt holder names it in a fenced write. */
export interface HeldAttempt {
  deliveryId: string;
  /** The attempt number the writer holds. */
  attempt: number;
}

/** Where outbox markers are parked, so that no due-work query ever returns them. */
export const OUTBOX_DUE_AT = new Date('9999-12-31T00:00:00Z');

/** A freshly accepted delivery whose first attempt an instance holds in memory. */
export interface HeldDelivery {
  deliveryId: string;
  accountId: string;
  endpointId: string;
}

/**
 * The claim of attempt 1 of a batch of freshly accepted deliveries by the instance that accepted
 * them, and their safety net: one document per batch, removed (by key) once every delivery in it has
 * its attempt recorded or its retry queued. A hold whose lease ran out belongs to an instance that
 * died; another instance takes it over and queues what is unfinished.
 */
export interface Hold {
  id: string;
  owner: string;
  leaseUntil: Date;
  deliveries: HeldDelivery[];
}

export interface DueQuery {
  now: Date;
  limit: number;
  /** Endpoints at their concurrency limit on this instance; their work is left for later. */
  excludeEndpoints: readonly string[];
}

export interface ClaimRequest {
  /** Due entries as found (their `attempt` is the next number). */
  entries: readonly QueueEntry[];
  owner: string;
  now: Date;
  leaseUntil: Date;
}

export interface DeliveryListFilter {
  accountId: string;
  registrationId?: string | undefined;
  status?: DeliveryStatus | 'in-flight' | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Deliveries whose last attempt failed with this class. */
  failureClass?: FailureClass | undefined;
  /** Deliveries of this callback type (the payload's `type`). */
  callbackType?: string | undefined;
  /** Cursor paging: only deliveries after this one in the newest-first order (pageNumber is then 0). */
  after?: DeliveryPosition | undefined;
  pageNumber: number;
  pageSize: number;
}

export type { RecoveryCandidate } from '../domain/recovery.js';

/** One weather event as one registration saw it. */
export interface EventKey {
  registrationId: string;
  eventId: string;
}

export type { DeliveryPosition } from '../domain/delivery-cursor.js';

/** A page of a list; `more` says whether deliveries follow it. */
export interface DeliveryListPage {
  items: Delivery[];
  /** Deliveries matching the filters, wherever the page starts. */
  total: number;
  more: boolean;
}

export interface DeliveryStore {
  /** Durable once resolved; 'duplicate' when the notification id is known (its chain exists). */
  insert(delivery: Delivery): Promise<'inserted' | 'duplicate'>;
  /** Adds a queue entry; 'duplicate' (and the existing entry left as it is) when the delivery has one. */
  enqueue(entry: QueueEntry): Promise<'inserted' | 'duplicate'>;
  /** Writes the queue entry of a delivery whatever was there (a manual redelivery of a finished one). */
  replaceQueueEntry(entry: QueueEntry): Promise<void>;
  /** The delivery with its attempt log and its state after the latest attempt. */
  get(deliveryId: string): Promise<Delivery | null>;
  /** The entry, with the owner and end of a live claim of its next attempt when there is one. */
  getQueueEntry(deliveryId: string): Promise<QueueEntry | null>;

  /**
   * Holds attempt 1 of a fresh delivery for `owner`, batched into one hold per batch; resolves with
   * the hold's id and how many deliveries it holds (it may be released once all of them are settled).
   */
  hold(delivery: HeldDelivery, owner: string, leaseUntil: Date): Promise<{ holdId: string; size: number }>;
  releaseHold(holdId: string): Promise<void>;
  /** Holds whose lease ran out: their owner died. Recovering one is idempotent (inserts only). */
  expiredHolds(now: Date, limit: number): Promise<Hold[]>;

  findDue(query: DueQuery): Promise<QueueEntry[]>;
  /**
   * Claims the next attempt of each entry with a unique insert; returns the entries this owner won,
   * each with the attempt number it holds. Correct where only unique inserts are atomic.
   */
  claim(request: ClaimRequest): Promise<QueueEntry[]>;
  /** Appends an attempt and the state it left to the attempt log (batched; durable once resolved). */
  recordAttempt(deliveryId: string, accountId: string, logged: LoggedAttempt): Promise<void>;
  /**
   * The writes below are made by the holder of attempt `heldAttempt` and are fenced by it: they apply
   * only while the entry's stored next attempt number is at most `heldAttempt`, i.e. no later attempt
   * has written the entry. A holder whose lease ran out while its request was slow can
   * then no longer dequeue, reschedule or park an entry a later attempt already moved on. The fence is
   * a filter on a value written earlier (not a compare-and-set between simultaneous writers, which races
   * on FerretDB): the later attempt's write has landed before the stale one arrives.
   */
  /** Gives the entry back for its next attempt, `heldAttempt + 1`, due at `dueAt`. */
  reschedule(deliveryId: string, heldAttempt: number, dueAt: Date): Promise<void>;
  /** Removes finished deliveries from the work index (batched). */
  dequeue(entries: readonly HeldAttempt[]): Promise<void>;

  /** Turns the entry into an outbox marker: the delivery is dead and DeliveryFailed is owed. */
  parkForOutbox(deliveryId: string, heldAttempt: number): Promise<void>;
  /** Dead deliveries whose DeliveryFailed is not yet published (the outbox). */
  pendingFailureEvents(limit: number): Promise<Delivery[]>;
  /** Clears the outbox flag and removes the marker. */
  markFailureEventPublished(deliveryId: string): Promise<void>;
  /** A manual attempt now for a delivery that is still pending (counts as manual, not against retries). */
  expedite(deliveryId: string, at: Date): Promise<boolean>;
  /** Marks a delivery dead without an attempt (no endpoint, endpoint disabled) after claiming `claimedAttempt`. */
  markDead(deliveryId: string, reason: FailureReason, error: string, at: Date, claimedAttempt: number): Promise<void>;
  /**
   * Counts one manual redelivery of the delivery unless it has had `max` already: false then. Kept on
   * the delivery document, so the cap holds across restarts and replicas (within the race of two
   * replicas counting the same delivery at once).
   */
  claimManualRedelivery(deliveryId: string, max: number): Promise<boolean>;
  /** Reopens a finished delivery for one manual attempt (its status goes back to pending). */
  reopen(deliveryId: string, at: Date): Promise<void>;

  list(filter: DeliveryListFilter): Promise<DeliveryListPage>;
  /**
   * The account's deliveries created in [since, until), oldest first, in the light form a recovery
   * chooses from (no payload, no attempt log), with their status as the attempt log leaves it.
   */
  recoveryCandidates(accountId: string, since: Date, until: Date): Promise<RecoveryCandidate[]>;
  /** The latest delivery of each (registration, event) pair, over the account's whole log: what `latest-state` sends. */
  latestOfEvents(accountId: string, events: readonly EventKey[]): Promise<RecoveryCandidate[]>;
  /** Writes the queue entries of a recovery (batched upserts); a delivery's existing entry is replaced. */
  queueRecovery(entries: readonly QueueEntry[]): Promise<void>;
}
