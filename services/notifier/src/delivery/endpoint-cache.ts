import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { EndpointRepository } from '../ports/endpoint-repository.js';

/**
 * Endpoints read through a short-lived cache: at thousands of deliveries per second, one database
 * read per attempt for a document that changes a few times a year is waste. A change made on another
 * instance is seen within `ttlMs`; changes made here invalidate at once.
 */
export class EndpointCache {
  private readonly byId = new Map<string, { endpoint: WebhookEndpoint | null; until: number }>();
  private readonly idByAccount = new Map<string, string>();

  constructor(
    private readonly repository: EndpointRepository,
    private readonly ttlMs = 5_000,
  ) {}

  async get(endpointId: string): Promise<WebhookEndpoint | null> {
    const hit = this.byId.get(endpointId);
    if (hit && hit.until > Date.now()) return hit.endpoint;
    const endpoint = await this.repository.findById(endpointId);
    this.remember(endpointId, endpoint);
    return endpoint;
  }

  async byAccount(accountId: string): Promise<WebhookEndpoint | null> {
    const id = this.idByAccount.get(accountId);
    if (id) {
      const hit = this.byId.get(id);
      if (hit && hit.until > Date.now() && hit.endpoint) return hit.endpoint;
    }
    const endpoint = await this.repository.findByAccount(accountId);
    if (endpoint) this.remember(endpoint.id, endpoint);
    return endpoint;
  }

  /** Updates the cached copy after a write made here. */
  put(endpoint: WebhookEndpoint): void {
    this.remember(endpoint.id, endpoint);
  }

  invalidate(endpointId: string): void {
    this.byId.delete(endpointId);
  }

  private remember(endpointId: string, endpoint: WebhookEndpoint | null): void {
    this.byId.set(endpointId, { endpoint, until: Date.now() + this.ttlMs });
    if (endpoint) this.idByAccount.set(endpoint.accountId, endpoint.id);
  }
}
