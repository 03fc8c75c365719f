import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { EndpointRepository } from '../ports/endpoint-repository.js';

interface Slot {
  endpoint: WebhookEndpoint | null;
  fetchedAt: number;
}

/** A slot this many TTLs old is not served any more: the caller waits for a fresh read (and its failure). */
const MAX_STALE_TTLS = 10;

/**
 * Endpoints (one per account) from memory: at thousands of deliveries per second, a database read per
 * delivery for a document that changes a few times a year is waste. Kept current by this instance's
 * own writes (put / invalidate, at once) and by a short TTL for changes made on other instances. A
 * slot past its TTL is still served while one background read refreshes it, so the hot path never
 * waits on the database after the first read of an account; concurrent misses share one read. "No
 * endpoint" is remembered too: alarms of accounts without a webhook are frequent and must not each
 * cost a read.
 */
export class EndpointCache {
  private readonly byId = new Map<string, Slot>();
  private readonly accountSlots = new Map<string, Slot>();
  private readonly loading = new Map<string, Promise<WebhookEndpoint | null>>();

  constructor(
    private readonly repository: EndpointRepository,
    private readonly ttlMs = 5_000,
  ) {}

  get(endpointId: string): Promise<WebhookEndpoint | null> {
    return this.read(this.byId, `id:${endpointId}`, endpointId, () => this.repository.findById(endpointId));
  }

  byAccount(accountId: string): Promise<WebhookEndpoint | null> {
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

  private async read(slots: Map<string, Slot>, flightKey: string, key: string, load: () => Promise<WebhookEndpoint | null>): Promise<WebhookEndpoint | null> {
    const slot = slots.get(key);
    const age = slot ? Date.now() - slot.fetchedAt : Infinity;
    if (slot && age < this.ttlMs) return slot.endpoint;
    const refresh = this.load(flightKey, slots === this.accountSlots ? { accountId: key } : { endpointId: key }, load);
    if (slot && age < this.ttlMs * MAX_STALE_TTLS) {
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
        // A write made here while the read was on its way is newer than what the read saw.
        const current = endpoint ? this.byId.get(endpoint.id) : undefined;
        if (current && current.fetchedAt > started) return current.endpoint;
        if (endpoint) this.remember(endpoint.id, endpoint.accountId, endpoint, started);
        else if (key.accountId) this.accountSlots.set(key.accountId, { endpoint: null, fetchedAt: started });
        else if (key.endpointId) this.byId.set(key.endpointId, { endpoint: null, fetchedAt: started });
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
