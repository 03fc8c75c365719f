import type { Delivery } from '../domain/delivery.js';
import type { WebhookEndpoint } from '../domain/endpoint.js';

/**
 * Where acceptance hands over a fresh delivery for its first attempt: this instance's delivery worker.
 * How that attempt is claimed (a hold of it sent from memory, or a queue entry when the endpoint has
 * no slot here) is the worker's protocol; acceptance stores the delivery and offers it, nothing more.
 */
export interface DeliveryIntake {
  /**
   * Takes `delivery` (stored, pending, never attempted) to the live `endpoint`. Resolves once its first
   * attempt is durably held or queued, so the event it came from may be acknowledged; it may first wait
   * for a free slot (back-pressure on the consumer). Rejects when neither could be written.
   */
  offer(delivery: Delivery, endpoint: WebhookEndpoint): Promise<void>;
}
