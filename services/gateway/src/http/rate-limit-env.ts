import { int } from '@stormhook/config';

/**
 * A back-test reads up to 30 days of weather history and runs the matcher over it (the target is 1 s
 * for a point alarm, 2 s for a district, issue 24), where a register call is one write. 20 an hour
 * lets a customer try a filter a dozen ways in a sitting (the answer's threshold sweep already shows
 * the trade-off of the main threshold in one call) while one account keeps the matcher and query busy
 * for under a minute an hour.
 */
export const DEFAULT_BACKTESTS_PER_ACCOUNT_PER_HOUR = 20;

/**
 * The gateway's abuse limits (issue 17 item 6); part of its config spec. Every replica counts into
 * the same counters (rate-limits.ts: synced every QUOTA_SYNC_INTERVAL_MS), so with R replicas a
 * window lets through at most limit + (R - 1) × the local allowance. 0 turns a limit off.
 */
export const rateLimitEnv = {
  /** login, refresh and logout per client address (IPv6 by /64). identity also locks out failed logins. */
  GATEWAY_AUTH_LIMIT_PER_ADDRESS_PER_MIN: int({
    default: 60,
    min: 0,
    max: 1_000_000,
    description: 'login, refresh and logout requests per address and minute',
  }),
  /** Password reset requests and confirmations per client address: each request may send an e-mail. */
  GATEWAY_PASSWORD_RESET_LIMIT_PER_ADDRESS_PER_HOUR: int({ default: 20, min: 0, max: 1_000_000, description: 'password reset requests per address and hour' }),
  /** Authenticated calls that no quota meters, per user (ADMIN exempt: operators and their tooling). */
  GATEWAY_UNMETERED_LIMIT_PER_PRINCIPAL_PER_MIN: int({
    default: 1_200,
    min: 0,
    max: 10_000_000,
    description: 'unmetered requests per user and minute (ADMIN exempt)',
  }),
  /** 4xx answers (other than 429) a caller, by address and by user, may collect per minute before it is blocked. */
  GATEWAY_ERROR_LIMIT_PER_MIN: int({ default: 300, min: 0, max: 10_000_000, description: '4xx answers per caller and minute before a block' }),
  GATEWAY_ERROR_BLOCK_S: int({ default: 60, min: 1, max: 86_400, description: 'how long a caller over its 4xx limit answers 429, in seconds' }),
  /** POST /v1/alarms/webhooks/test per account: each one is a real callback to the customer's server. */
  GATEWAY_TEST_DELIVERIES_PER_ACCOUNT_PER_HOUR: int({
    default: 30,
    min: 0,
    max: 1_000_000,
    description: 'manual webhook deliveries (test deliveries and redeliveries together) per account and hour',
  }),
  /** POST /v1/alarms/{kind}/backtest per account: each one reads a whole window of weather history. */
  GATEWAY_BACKTESTS_PER_ACCOUNT_PER_HOUR: int({
    default: DEFAULT_BACKTESTS_PER_ACCOUNT_PER_HOUR,
    min: 0,
    max: 1_000_000,
    description: 'alarm back-tests (the three kinds together) per account and hour; failed ones are given back',
  }),
  /**
   * What one replica may let through of one limit before the other replicas can have read it, in
   * percent of the limit (at least 1 call): the overshoot across R replicas is at most (R - 1) × this.
   * Lower holds limits tighter; a burst from one client then waits a sync round or two for more.
   */
  GATEWAY_ABUSE_LOCAL_ALLOWANCE_PERCENT: int({
    default: 10,
    min: 1,
    max: 100,
    description: 'percent of each abuse limit one gateway replica may let through before the others have seen it',
  }),
};
