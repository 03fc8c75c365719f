import { int } from '@stormhook/config';

/** The settings of the SMS and e-mail outbox worker; part of the notifier's config spec. */
export const messageEnv = {
  /**
   * The longest wait for the SMTP server or the SMS gateway per attempt (connect, greeting, reply).
   * Well under the Kafka session timeout (10 s), although sending no longer runs in the consumer.
   */
  NOTIFIER_MESSAGE_SEND_TIMEOUT_MS: int({ default: 8_000, min: 100, max: 60_000, description: 'timeout of one SMS or e-mail attempt, in milliseconds' }),
  NOTIFIER_MESSAGE_CONCURRENCY: int({ default: 16, min: 1, max: 1_000, description: 'SMS and e-mail being sent at once per process' }),
  NOTIFIER_MESSAGE_POLL_INTERVAL_MS: int({
    default: 1_000,
    min: 10,
    max: 60_000,
    description: 'interval between two reads of the message outbox, in milliseconds',
  }),
  NOTIFIER_MESSAGE_RETRY_BASE_MS: int({
    default: 5_000,
    min: 10,
    max: 3_600_000,
    description: 'first retry delay of a message; doubles per attempt, in milliseconds',
  }),
  NOTIFIER_MESSAGE_RETRY_MAX_MS: int({ default: 600_000, min: 10, max: 86_400_000, description: 'longest retry delay of a message, in milliseconds' }),
  /** 12 attempts at 5 s doubling to 10 min: about 50 minutes of trying, then the message is logged failed. */
  NOTIFIER_MESSAGE_MAX_ATTEMPTS: int({ default: 12, min: 1, max: 100, description: 'attempts of one SMS or e-mail before it is given up' }),
};
