import type { Request, RequestHandler, Response } from 'express';
import { ApiError, ErrorMessages } from '@stormhook/errors';
import type { identityV1 } from '@stormhook/proto';
import type { RouteSpec } from '../contract/route-spec.js';
import { addressLimitKey } from '@stormhook/access';
import { ErrorBlock, WindowedLimit, type SharedCounter } from './abuse-windows.js';
import { accessOf, principalOf } from './auth-state.js';

export type { SharedCounter } from './abuse-windows.js';

/**
 * The counter family of manual webhook deliveries (test deliveries and redeliveries). Named before
 * redeliveries joined it. WARNING: the family names are counter keys; renaming one resets its counts.
 */
export const TEST_DELIVERY_COUNTER = 'webhook-test-deliveries';
/**
 * Operations that make the notifier send a request to a customer-chosen host on demand: one hourly
 * count per account covers them all, so a test delivery plus a loop of redeliveries cannot make
 * Stormhook a reflector (issue 23 item 4). The notifier caps redeliveries per delivery as well.
 */
const MANUAL_DELIVERY_OPERATIONS: ReadonlySet<string> = new Set(['sendWebhookTest', 'redeliverDelivery', 'recoverWebhookDeliveries']);
/**
 * The counter family of alarm back-tests. WARNING: a counter key; renaming it resets its counts.
 */
export const BACKTEST_COUNTER = 'alarm-backtests';
/**
 * Back-tests read a whole window of weather history: their quota line is an hourly allowance per
 * account of their own (issue 24), apart from the alarm kind's invocation limit, which they do not
 * touch (packages/access operations.ts), so exploring filters never eats into registering them.
 */
const BACKTEST_OPERATIONS: ReadonlySet<string> = new Set(['backtestGeometryAlarm', 'backtestForecastAlarm', 'backtestPointAlarm']);
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** The abuse limits; 0 turns one off. Defaults and meaning: rate-limit-env.ts. */
export interface AbuseLimitSettings {
  authPerAddressPerMin: number;
  passwordResetPerAddressPerHour: number;
  unmeteredPerPrincipalPerMin: number;
  errorsPerMin: number;
  errorBlockS: number;
  testDeliveriesPerAccountPerHour: number;
  backtestsPerAccountPerHour: number;
  /** Percent of each limit one replica may let through before the others can have seen it. */
  localAllowancePercent: number;
}

export function abuseLimitSettings(config: {
  GATEWAY_AUTH_LIMIT_PER_ADDRESS_PER_MIN: number;
  GATEWAY_PASSWORD_RESET_LIMIT_PER_ADDRESS_PER_HOUR: number;
  GATEWAY_UNMETERED_LIMIT_PER_PRINCIPAL_PER_MIN: number;
  GATEWAY_ERROR_LIMIT_PER_MIN: number;
  GATEWAY_ERROR_BLOCK_S: number;
  GATEWAY_TEST_DELIVERIES_PER_ACCOUNT_PER_HOUR: number;
  GATEWAY_BACKTESTS_PER_ACCOUNT_PER_HOUR: number;
  GATEWAY_ABUSE_LOCAL_ALLOWANCE_PERCENT: number;
}): AbuseLimitSettings {
  return {
    authPerAddressPerMin: config.GATEWAY_AUTH_LIMIT_PER_ADDRESS_PER_MIN,
    passwordResetPerAddressPerHour: config.GATEWAY_PASSWORD_RESET_LIMIT_PER_ADDRESS_PER_HOUR,
    unmeteredPerPrincipalPerMin: config.GATEWAY_UNMETERED_LIMIT_PER_PRINCIPAL_PER_MIN,
    errorsPerMin: config.GATEWAY_ERROR_LIMIT_PER_MIN,
    errorBlockS: config.GATEWAY_ERROR_BLOCK_S,
    testDeliveriesPerAccountPerHour: config.GATEWAY_TEST_DELIVERIES_PER_ACCOUNT_PER_HOUR,
    backtestsPerAccountPerHour: config.GATEWAY_BACKTESTS_PER_ACCOUNT_PER_HOUR,
    localAllowancePercent: config.GATEWAY_ABUSE_LOCAL_ALLOWANCE_PERCENT,
  };
}

/** The longest window an abuse limit counts in: how far back a starting replica reads the counters. */
export const LONGEST_ABUSE_WINDOW_MS = HOUR_MS;

const AUTH_OPERATIONS: ReadonlySet<string> = new Set(['login', 'refreshToken', 'logout']);
const RESET_OPERATIONS: ReadonlySet<string> = new Set(['requestPasswordReset', 'resetPassword']);
/** Health checks and the API documents are for probes and tooling: never limited. */
const EXEMPT_PATHS: ReadonlySet<string> = new Set(['/v1/health', '/v1/health/live', '/v1/health/ready', '/v1/openapi.json', '/v1/asyncapi.json']);

function tooMany(res: Response, retryAfterSeconds: number): ApiError {
  res.set('Retry-After', String(retryAfterSeconds));
  return new ApiError(429, ErrorMessages.tooManyRequests);
}

function principalOrUndefined(req: Request): identityV1.Principal | undefined {
  try {
    return principalOf(req);
  } catch {
    return undefined;
  }
}

/**
 * Request-rate limits for what no quota meters (issue 17 item 6): sign-in and password reset per
 * address, unmetered calls per user, callers that collect many 4xx answers (metered calls that fail
 * are refunded, so errors cost a caller nothing otherwise), and manual webhook deliveries per account.
 * Every refusal is a 429 ErrorResponse with Retry-After.
 *
 * The counts are shared by every gateway replica (issue 23 item 4): they are the quota meter's
 * shares, in memory and exchanged through the database every sync interval, so no request waits on
 * the database. Windows are aligned to the clock (a minute, an hour). Bound: with R replicas a
 * window lets through at most limit + (R - 1) × local allowance, where the local allowance is
 * GATEWAY_ABUSE_LOCAL_ALLOWANCE_PERCENT of the limit (at least 1): a replica refuses (Retry-After
 * of about two sync intervals) once it let that many calls through that the other replicas may not
 * have read yet. The bound assumes a sync round takes less than one sync interval; slower rounds add
 * what a replica lets through meanwhile. The allowance binds only while a replica sees another one
 * running (their presence shares): a lone replica lets bursts through up to the limit, and for the
 * first sync lag after a replica starts the others do not know of it yet. A 4xx block starts on each replica when it learns of the
 * excess, at most about two sync intervals after the answer that caused it. Counts of a crashed
 * replica since its last write (one interval) are lost; identity's failed-login lockout is separate.
 */
export class AbuseLimits {
  private readonly auth: WindowedLimit;
  private readonly reset: WindowedLimit;
  private readonly unmetered: WindowedLimit;
  private readonly errors: ErrorBlock;
  private readonly testDeliveries: WindowedLimit;
  private readonly backtests: WindowedLimit;

  constructor(settings: AbuseLimitSettings, counter: SharedCounter, now: () => number = Date.now) {
    const limit = (family: string, points: number, windowMs: number) =>
      new WindowedLimit(family, points, windowMs, counter, settings.localAllowancePercent, now);
    this.auth = limit('abuse-auth', settings.authPerAddressPerMin, MINUTE_MS);
    this.reset = limit('abuse-password-reset', settings.passwordResetPerAddressPerHour, HOUR_MS);
    this.unmetered = limit('abuse-unmetered', settings.unmeteredPerPrincipalPerMin, MINUTE_MS);
    this.errors = new ErrorBlock(limit('abuse-errors', settings.errorsPerMin, MINUTE_MS), counter, settings.errorBlockS * 1000, now);
    this.testDeliveries = limit(TEST_DELIVERY_COUNTER, settings.testDeliveriesPerAccountPerHour, HOUR_MS);
    this.backtests = limit(BACKTEST_COUNTER, settings.backtestsPerAccountPerHour, HOUR_MS);
  }

  /**
   * Before routing: refuses an address that is blocked for its 4xx answers, and counts every 4xx
   * answer (except our own 429s, which would extend a block forever) against the address and, once
   * authenticated, the user.
   */
  readonly screen: RequestHandler = async (req, res, next) => {
    if (EXEMPT_PATHS.has(req.path)) return next();
    const address = `addr:${addressLimitKey(req.ip)}`;
    const wait = await this.errors.waiting(address);
    if (wait !== undefined) throw tooMany(res, wait);
    res.on('finish', () => {
      if (res.statusCode < 400 || res.statusCode >= 500 || res.statusCode === 429) return;
      void this.errors.note(address);
      const principal = principalOrUndefined(req);
      if (principal?.userId) void this.errors.note(`user:${principal.userId}`);
    });
    next();
  };

  /** Before authentication: the per-address limits of the operations anyone may call. */
  before(operation: RouteSpec): RequestHandler[] {
    const limit = AUTH_OPERATIONS.has(operation.operationId) ? this.auth : RESET_OPERATIONS.has(operation.operationId) ? this.reset : undefined;
    if (!limit) return [];
    return [
      async (req, res, next) => {
        const wait = await limit.take(`${operation.operationId}:${addressLimitKey(req.ip)}`);
        if (wait !== undefined) throw tooMany(res, wait);
        next();
      },
    ];
  }

  /** After the access check: per-user limits (4xx block, unmetered rate, test deliveries, back-tests). */
  after(operation: RouteSpec): RequestHandler[] {
    if (!operation.authenticated) return [];
    return [
      async (req, res, next) => {
        const principal = principalOf(req);
        const blocked = await this.errors.waiting(`user:${principal.userId}`);
        if (blocked !== undefined) throw tooMany(res, blocked);
        if (principal.role !== 'ADMIN' && !accessOf(req)?.metered) {
          const wait = await this.unmetered.take(principal.userId);
          if (wait !== undefined) throw tooMany(res, wait);
        }
        if (MANUAL_DELIVERY_OPERATIONS.has(operation.operationId)) {
          // An ADMIN names the account; anyone else can only reach their own (another answers 404).
          const named = typeof req.query['accountId'] === 'string' ? req.query['accountId'] : '';
          const account = principal.role === 'ADMIN' && named ? named : principal.accountId || `user:${principal.userId}`;
          const wait = await this.testDeliveries.take(account);
          if (wait !== undefined) throw tooMany(res, wait);
        }
        if (BACKTEST_OPERATIONS.has(operation.operationId)) {
          // Per account (the subscription's, which a token older than the account does not name), as the
          // work is the account's; a user without one is refused by the matcher, and the count given back.
          const account = accessOf(req)?.accountId || principal.accountId || `user:${principal.userId}`;
          const taken = await this.backtests.takeBack(account);
          if (!taken.allowed) throw tooMany(res, taken.waitSeconds);
          // Only a back-test that ran keeps its count: a 400 or a 503 read no history, or failed on our side.
          res.on('finish', () => {
            if (res.statusCode >= 400) void taken.giveBack();
          });
        }
        next();
      },
    ];
  }
}
