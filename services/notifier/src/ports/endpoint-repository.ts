import type { WebhookEndpoint } from '../domain/endpoint.js';

/** Stored webhook endpoints, one per account. Secrets are encrypted by the implementation. */
export interface EndpointRepository {
  findByAccount(accountId: string): Promise<WebhookEndpoint | null>;
  findById(endpointId: string): Promise<WebhookEndpoint | null>;
  /** 'duplicate' when the account already has one (unique account id). */
  insert(endpoint: WebhookEndpoint): Promise<'inserted' | 'duplicate'>;
  /** Writes the whole endpoint (configuration, status, secrets). */
  save(endpoint: WebhookEndpoint): Promise<void>;
  /** Failure tracking: sets or clears the start of the current failure run. */
  setFailingSince(endpointId: string, failingSince: Date | null): Promise<void>;
  /** Disables an enabled endpoint; false when it was disabled already (someone else got there first). */
  disable(endpointId: string, reason: string, at: Date): Promise<boolean>;
}
