import type { AttemptTrigger, Delivery, DeliveryAttempt, DeliveryStatus, FailureReason } from '../domain/delivery.js';

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
  /** Number given to the most recent claimed attempt (attempt numbers survive crashes). */
  attempt: number;
  /** Manual attempts asked for while the delivery was pending; `attempt - manualAttempts` is the scheduled count. */
  manualAttempts: number;
  /** Dead with its DeliveryFailed not yet published: kept here so the outbox sweep never scans history. */
  outbox: boolean;
  leaseOwner: string | null;
  leaseUntil: Date | null;
}

export interface DueQuery {
  now: Date;
  limit: number;
  /** Endpoints at their concurrency limit on this instance; their work is left for later. */
  excludeEndpoints: readonly string[];
}

export interface ClaimRequest {
  ids: readonly string[];
  owner: string;
  now: Date;
  leaseUntil: Date;
}

/** What one finished attempt changes on its delivery. */
export interface AttemptRecord {
  attempt: DeliveryAttempt;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  finishedAt: Date | null;
  failureReason: FailureReason | null;
  /** Also sets the outbox flag: a DeliveryFailed event must be published. */
  publishFailure: boolean;
  endpointId: string | null;
}

export interface DeliveryListFilter {
  accountId: string;
  registrationId?: string | undefined;
  status?: DeliveryStatus | 'in-flight' | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  pageNumber: number;
  pageSize: number;
}

export interface DeliveryStore {
  /** Durable once resolved; 'duplicate' when the notification id is known (its chain exists). */
  insert(delivery: Delivery): Promise<'inserted' | 'duplicate'>;
  /** Adds a queue entry; an existing entry for the delivery is left as it is. */
  enqueue(entry: QueueEntry): Promise<void>;
  /** Writes the queue entry of a delivery whatever was there (a manual redelivery of a finished one). */
  replaceQueueEntry(entry: QueueEntry): Promise<void>;
  get(deliveryId: string): Promise<Delivery | null>;
  getQueueEntry(deliveryId: string): Promise<QueueEntry | null>;

  findDue(query: DueQuery): Promise<QueueEntry[]>;
  /** Leases the entries whose lease is free or expired; returns those this owner now holds. */
  claim(request: ClaimRequest): Promise<QueueEntry[]>;
  recordAttempt(deliveryId: string, record: AttemptRecord): Promise<void>;
  /** Releases the lease and sets the next due time. */
  reschedule(deliveryId: string, dueAt: Date): Promise<void>;
  /** Removes finished deliveries from the work index. */
  dequeue(deliveryIds: readonly string[]): Promise<void>;
  /** Gives a delivery back without an attempt (shutdown, endpoint busy). */
  release(deliveryIds: readonly string[]): Promise<void>;

  /** Turns the entry into an outbox marker: the delivery is dead and DeliveryFailed is owed. */
  parkForOutbox(deliveryId: string): Promise<void>;
  /** Dead deliveries whose DeliveryFailed is not yet published (the outbox). */
  pendingFailureEvents(limit: number): Promise<Delivery[]>;
  /** Clears the outbox flag and removes the marker. */
  markFailureEventPublished(deliveryId: string): Promise<void>;
  /** A manual attempt now for a delivery that is still pending (counts as manual, not against retries). */
  expedite(deliveryId: string, at: Date): Promise<boolean>;
  /** Marks a delivery dead without an attempt (no endpoint, endpoint disabled). */
  markDead(deliveryId: string, reason: FailureReason, error: string, at: Date): Promise<void>;
  /** Reopens a finished delivery for one manual attempt (its status goes back to pending). */
  reopen(deliveryId: string, at: Date): Promise<void>;

  list(filter: DeliveryListFilter): Promise<{ items: Delivery[]; total: number }>;
}
