import { int } from '@stormhook/config';

/** How long the notifier keeps finished records (issue 17 item 6); part of its config spec. 0 keeps them forever. */
export const retentionEnv = {
  /**
   * Deliveries, their attempt log and their attempt claims (`delivery_leases`), by creation / attempt
   * time. Far longer than the longest retry schedule the delivery policy bounds allow (10 retries of
   * at most an hour), so nothing still being retried is removed.
   */
  NOTIFIER_DELIVERY_RETENTION_DAYS: int({ default: 30, min: 0, max: 3_650, description: 'days deliveries, attempts and attempt claims are kept' }),
  /** The SMS and e-mail log (outcome only, never the text) and its attempt claims; pending messages stay in the outbox. */
  NOTIFIER_MESSAGE_RETENTION_DAYS: int({ default: 30, min: 0, max: 3_650, description: 'days the SMS and e-mail log and its claims are kept' }),
  NOTIFIER_RETENTION_INTERVAL_MS: int({
    default: 3_600_000,
    min: 1_000,
    max: 86_400_000,
    description: 'how often expired records are deleted, in milliseconds',
  }),
};
