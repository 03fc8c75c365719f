import type { Request, RequestHandler, Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError, ErrorMessages } from '@stormhook/errors';
import type { identityV1 } from '@stormhook/proto';
import type { RouteSpec } from '../contract/route-spec.js';
import { addressLimitKey } from '@stormhook/access';
import type { MeteredWindow, QuotaState } from '../quota/quota-meter.js';
import { accessOf, principalOf } from './auth-state.js';

/** Counts shared by every gateway replica: the quota meter (in memory, synced through the database). */
export interface SharedCounter {
  consume(window: MeteredWindow): Promise<QuotaState>;
}

/**
 * The meter's service name for manual webhook deliveries (test deliveries and redeliveries), beside
 * the metered services' names. Named before redeliveries joined it; renaming it resets every count.
 */
export const TEST_DELIVERY_COUNTER = 'webhook-test-deliveries';
/**
 * Operations that make the notifier send a request to a customer-chosen host on demand: one hourly
 * count per account covers them all, so a test delivery plus a loop of redeliveries cannot make
 * Stormhook a reflector (issue 23 item 4). The notifier caps redeliveries per delivery as well.
 */
const MANUAL_DELIVERY_OPERATIONS: ReadonlySet<string> = new Set(['sendWebhookTest', 'redeliverDelivery', 'recoverWebhookDeliveries']);
const HOUR_MS = 3_600_000;

/** The abuse limits; 0 turns one off. Defaults and meaning: rate-limit-env.ts. */
export interface AbuseLimitSettings {
  authPerAddressPerMin: number;
  passwordResetPerAddressPerHour: number;
  unmeteredPerPrincipalPerMin: number;
  errorsPerMin: number;
  errorBlockS: number;
  testDeliveriesPerAccountPerHour: number;
}

export function abuseLimitSettings(config: {
  GATEWAY_AUTH_LIMIT_PER_ADDRESS_PER_MIN: number;
  GATEWAY_PASSWORD_RESET_LIMIT_PER_ADDRESS_PER_HOUR: number;
  GATEWAY_UNMETERED_LIMIT_PER_PRINCIPAL_PER_MIN: number;
  GATEWAY_ERROR_LIMIT_PER_MIN: number;
  GATEWAY_ERROR_BLOCK_S: number;
  GATEWAY_TEST_DELIVERIES_PER_ACCOUNT_PER_HOUR: number;
}): AbuseLimitSettings {
  return {
    authPerAddressPerMin: config.GATEWAY_AUTH_LIMIT_PER_ADDRESS_PER_MIN,
    passwordResetPerAddressPerHour: config.GATEWAY_PASSWORD_RESET_LIMIT_PER_ADDRESS_PER_HOUR,
    unmeteredPerPrincipalPerMin: config.GATEWAY_UNMETERED_LIMIT_PER_PRINCIPAL_PER_MIN,
    errorsPerMin: config.GATEWAY_ERROR_LIMIT_PER_MIN,
    errorBlockS: config.GATEWAY_ERROR_BLOCK_S,
    testDeliveriesPerAccountPerHour: config.GATEWAY_TEST_DELIVERIES_PER_ACCOUNT_PER_HOUR,
  };
}

/** One counter family; `take` answers the seconds to wait when over, undefined when allowed. */
class Limit {
  private readonly limiter: RateLimiterMemory | undefined;

  constructor(points: number, durationS: number, blockS?: number) {
    this.limiter = points > 0 ? new RateLimiterMemory({ points, duration: durationS, ...(blockS ? { blockDuration: blockS } : {}) }) : undefined;
  }

  async take(key: string): Promise<number | undefined> {
    if (!this.limiter) return undefined;
    try {
      await this.limiter.consume(key);
      return undefined;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw rejection;
    }
  }

  /** Seconds a key still has to wait when it is over its limit (without counting a request). */
  async waiting(key: string): Promise<number | undefined> {
    if (!this.limiter) return undefined;
    const state = await this.limiter.get(key);
    if (!state || state.remainingPoints > 0 || state.consumedPoints <= this.limiter.points) return undefined;
    return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  }
}

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
 * are refunded, so errors cost a caller nothing otherwise), and webhook test deliveries per account.
 * The request-rate counters live in this replica's memory (rate-limiter-flexible), so no request
 * gains a database round trip; with R replicas a caller can get R times each of them (identity's
 * failed-login lockout, per username and address, is shared). The manual-delivery cap (test deliveries and redeliveries) is per clock
 * hour and, given a shared counter, counted by the quota meter, so it holds across replicas and
 * restarts within the meter's bound: each one reaches a customer's receiver, and an account has few
 * counters an hour. Every refusal is a 429 ErrorResponse with Retry-After.
 */
export class AbuseLimits {
  private readonly auth: Limit;
  private readonly reset: Limit;
  private readonly unmetered: Limit;
  private readonly errors: Limit;
  private readonly testDeliveries: Limit;
  private readonly testDeliveriesPerHour: number;

  constructor(
    settings: AbuseLimitSettings,
    private readonly shared?: SharedCounter,
    private readonly now: () => number = Date.now,
  ) {
    this.testDeliveriesPerHour = settings.testDeliveriesPerAccountPerHour;
    this.auth = new Limit(settings.authPerAddressPerMin, 60);
    this.reset = new Limit(settings.passwordResetPerAddressPerHour, 3600);
    this.unmetered = new Limit(settings.unmeteredPerPrincipalPerMin, 60);
    this.errors = new Limit(settings.errorsPerMin, 60, settings.errorBlockS);
    this.testDeliveries = new Limit(settings.testDeliveriesPerAccountPerHour, 3600);
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
      void this.errors.take(address);
      const principal = principalOrUndefined(req);
      if (principal?.userId) void this.errors.take(`user:${principal.userId}`);
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

  /** After the access check: per-user limits (4xx block, unmetered rate, test deliveries). */
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
          const wait = await this.takeTestDelivery(account);
          if (wait !== undefined) throw tooMany(res, wait);
        }
        next();
      },
    ];
  }

  private async takeTestDelivery(account: string): Promise<number | undefined> {
    if (!this.shared || this.testDeliveriesPerHour <= 0) return this.testDeliveries.take(account);
    const startMs = Math.floor(this.now() / HOUR_MS) * HOUR_MS;
    const window = {
      accountId: account,
      service: TEST_DELIVERY_COUNTER,
      limit: this.testDeliveriesPerHour,
      start: new Date(startMs),
      end: new Date(startMs + HOUR_MS),
    };
    const state = await this.shared.consume(window);
    return state.allowed ? undefined : state.resetSeconds;
  }
}
