import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { EndpointRepository } from '../ports/endpoint-repository.js';

interface Slot {
  endpoint: WebhookEndpoint | null;
  fetchedAt: number;
}

/** A slot this many refresh periods old is not served any more: the caller waits for a fresh read (and its failure). */
const MAX_STALE_PERIODS = 10;

/**
 * Endpoints (one per account) from memory: at thousands of deliveries per second, a database read per
 * delivery for a document that changes a few times a year is waste. Kept current by this instance's
 * own writes (put / invalidate, at once), by the endpoint change log for changes made on other
 * instances (EndpointChangeWatcher calls `changed`), and by a refresh every `refreshMs` as the safety
 * net for a change the log missed. A slot past its refresh time is still served while one background
 * read refreshes it, so the hot path never waits on the database after the first read of an account;
 * concurrent misses share one read. An account's endpoint never changes once it has one, so it is
 * refreshed by its id alone (one `_id` read, not two). "No endpoint" is remembered too: alarms of
 * accounts without a webhook are frequent and must not each cost a read.
 */
export class EndpointCache {
  private readonly byId = new Map<string, Slot>();
  private readonly accountSlots = new Map<string, Slot>();
  private readonly loading = new Map<string, Promise<WebhookEndpoint | null>>();
  /** Changes heard of while a read of the same key was on its way, by flight key (when heard). */
  private readonly changedAt = new Map<string, number>();

  /**
   * `refreshMs`: how old a copy may get before it is read again. With the change log followed, only a
   * change it missed waits that long (the service's default is minutes); without it, this is how long
   * a change made on another instance takes to arrive.
   */
  constructor(
    private readonly repository: EndpointRepository,
    private readonly refreshMs = 5_000,
  ) {}

  get(endpointId: string): Promise<WebhookEndpoint | null> {
    return this.read(this.byId, `id:${endpointId}`, endpointId, () => this.repository.findById(endpointId));
  }

  byAccount(accountId: string): Promise<WebhookEndpoint | null> {
    const known = this.accountSlots.get(accountId)?.endpoint;
    if (known) return this.get(known.id);
    return this.read(this.accountSlots, `account:${accountId}`, accountId, () => this.repository.findByAccount(accountId));
  }

  /** The endpoint as the database has it now, bypassing (and refreshing) the cached copy. */
  fresh(endpointId: string): Promise<WebhookEndpoint | null> {
    this.invalidate(endpointId);
    return this.get(endpointId);
  }

  /** Updates the cached copy after a write made here. */
  put(endpoint: WebhookEndpoint): void {
    this.remember(endpoint.id, endpoint.accountId, endpoint);
  }

  invalidate(endpointId: string): void {
    const slot = this.byId.get(endpointId);
    this.byId.delete(endpointId);
    if (slot?.endpoint) this.accountSlots.delete(slot.endpoint.accountId);
  }

  /**
   * An endpoint was written elsewhere (the change log): its copy, or the account's "no endpoint", is
   * read again before it is served next. The copy keeps serving while that read is on its way, as
   * it would at its refresh time.
   */
  changed(endpointId: string, accountId: string): void {
    const now = Date.now();
    // A read already on its way may have seen the endpoint before this change: it must not pass for fresh.
    for (const key of [`id:${endpointId}`, `account:${accountId}`]) if (this.loading.has(key)) this.changedAt.set(key, now);
    for (const slot of [this.byId.get(endpointId), this.accountSlots.get(accountId)]) if (slot) slot.fetchedAt = Math.min(slot.fetchedAt, now - this.refreshMs);
  }

  /** Every copy is read again before it is served next (the change log lost its place). */
  expireAll(): void {
    const due = Date.now() - this.refreshMs;
    for (const slots of [this.byId, this.accountSlots]) for (const slot of slots.values()) slot.fetchedAt = Math.min(slot.fetchedAt, due);
  }

  private async read(slots: Map<string, Slot>, flightKey: string, key: string, load: () => Promise<WebhookEndpoint | null>): Promise<WebhookEndpoint | null> {
    const slot = slots.get(key);
    const age = slot ? Date.now() - slot.fetchedAt : Infinity;
    if (slot && age < this.refreshMs) return slot.endpoint;
    const refresh = this.load(flightKey, slots === this.accountSlots ? { accountId: key } : { endpointId: key }, load);
    if (slot && age < this.refreshMs * MAX_STALE_PERIODS) {
      refresh.catch(() => undefined); // the stale copy serves meanwhile; the next read tries again
      return slot.endpoint;
    }
    return refresh;
  }

  private load(
    flightKey: string,
    key: { accountId?: string; endpointId?: string },
    load: () => Promise<WebhookEndpoint | null>,
  ): Promise<WebhookEndpoint | null> {
    const running = this.loading.get(flightKey);
    if (running) return running;
    const started = Date.now();
    const promise = load()
      .then((endpoint) => {
        const heard = this.changedAt.get(flightKey);
        this.changedAt.delete(flightKey);
        // Kept, but read again next time: the read may have seen the endpoint before that change.
        // Otherwise up to a quarter of a period earlier than it was read, so copies read together (a
        // storm's accounts at its start) come due apart, not in one burst of reads every period.
        const seenAt = heard !== undefined ? heard - this.refreshMs : started - Math.floor(Math.random() * (this.refreshMs / 4));
        // A write made here while the read was on its way is newer than what the read saw.
        const current = endpoint ? this.byId.get(endpoint.id) : undefined;
        if (current && current.fetchedAt > started) return current.endpoint;
        if (endpoint) this.remember(endpoint.id, endpoint.accountId, endpoint, seenAt);
        else if (key.accountId) this.accountSlots.set(key.accountId, { endpoint: null, fetchedAt: seenAt });
        else if (key.endpointId) this.byId.set(key.endpointId, { endpoint: null, fetchedAt: seenAt });
        return endpoint;
      })
      .finally(() => this.loading.delete(flightKey));
    this.loading.set(flightKey, promise);
    return promise;
  }

  private remember(endpointId: string, accountId: string, endpoint: WebhookEndpoint, at = Date.now()): void {
    const slot = { endpoint, fetchedAt: at };
    this.byId.set(endpointId, slot);
    this.accountSlots.set(accountId, slot);
  }
}
