import type { WebhookEndpoint } from '../domain/endpoint.js';

/** An endpoint's id and its account: a write by id names the account too, for the change log. */
export type EndpointKey = Pick<WebhookEndpoint, 'id' | 'accountId'>;

/** Stored webhook endpoints, one per account. Secrets are encrypted by the implementation. */
export interface EndpointRepository {
  findByAccount(accountId: string): Promise<WebhookEndpoint | null>;
  findById(endpointId: string): Promise<WebhookEndpoint | null>;
  /** 'duplicate' when the account already has one (unique account id). */
  insert(endpoint: WebhookEndpoint): Promise<'inserted' | 'duplicate'>;
  /** Writes the whole endpoint (configuration, status, secrets). */
  save(endpoint: WebhookEndpoint): Promise<void>;
  /** Failure tracking: sets or clears the start of the current failure run. */
  setFailingSince(endpoint: EndpointKey, failingSince: Date | null): Promise<void>;
  /** Disables an enabled endpoint; false when it was disabled already (someone else got there first). */
  disable(endpoint: EndpointKey, reason: string, at: Date): Promise<boolean>;
}
