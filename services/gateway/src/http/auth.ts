import type { Request, RequestHandler, Response } from 'express';
import { currentPrincipal, decideAccess, decisionResponse, SESSION_ENDED, type ClaimedCaller, type QueriedArea } from '@stormhook/access';
import { ApiError, ErrorMessages } from '@stormhook/errors';
import type { Logger } from '@stormhook/logger';
import type { identityV1 } from '@stormhook/proto';
import type { GeoResolutionCache } from '../access/geo-resolution-cache.js';
import type { AccessSnapshotCache } from '../access/snapshot-cache.js';
import type { QuotaMeter, MeteredWindow } from '../quota/quota-meter.js';
import { quotaHeaders } from '../quota/quota-meter.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { ApiKeyCache } from './auth-api-keys.js';
import { AccessTokenVerifier } from './auth-jwt.js';
import { AREA_OF, LOCATION_OF, queriedAreaRef, queriedPoint } from './auth-location.js';
import { principalOf, setAuthState } from './auth-state.js';
import type { TokenKeySource } from './auth-token-keys.js';
import { jsonBody } from './json-body.js';

export interface AccessGuardDeps {
  /** Each user's role, status and subscription, kept current by identity.user-changed.v1. */
  snapshots: AccessSnapshotCache;
  /** Country and region of queried points. */
  geo: Pick<GeoResolutionCache, 'resolve' | 'resolveArea'>;
  tokenKeys: TokenKeySource;
  apiKeys: ApiKeyCache;
  meter: QuotaMeter;
  bodyLimitBytes: number;
  logger: Logger;
  now?: () => Date;
}

const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)$/i;

function unauthorized(res: Response, message: string, error?: 'invalid_token' | 'invalid_request'): ApiError {
  // RFC 6750: tell the client which scheme to use and, for a bad token, that the token is the problem.
  res.set('WWW-Authenticate', error ? `Bearer realm="stormhook", error="${error}"` : 'Bearer realm="stormhook"');
  return new ApiError(401, message);
}

const unavailable = (cause: unknown): ApiError => new ApiError(503, ErrorMessages.serviceUnavailable, undefined, { cause });

/**
 * Operations that change what some user may do. identity's change event reaches every replica within
 * milliseconds; the replica that served the change also applies it at once, so a client acting on its
 * own change (grant a plan, then call) never meets the old state there. Clearing every snapshot is
 * cheap: these operations are rare, and the expiry re-reads every active user every few seconds anyway.
 */
const ACCESS_CHANGING: ReadonlySet<string> = new Set([
  'changeUserRoleAndStatus',
  'updateSubscription',
  'createAccount',
  'updateAccount',
  'createApiKey',
  'revokeApiKey',
]);

/** What the credential says, before the user's current state is read. */
const claims = new WeakMap<Request, ClaimedCaller>();

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Authentication and access control of every authenticated operation, as guards that run before
 * the operation's own body parsing and validation:
 *
 * 1. who: `Authorization: Bearer <accessToken>` verified locally with identity's public key, or
 *    `X-API-Key` verified by identity (cached; a revocation event evicts it); nothing or anything
 *    invalid is a 401;
 * 2. for operations that query a place, the JSON body is read here so its point can be checked;
 * 3. the user's access snapshot (in memory, refreshed by identity.user-changed.v1 events and after
 *    a short expiry) gives the current role, status and subscription: a user who may no longer act
 *    is a 401, and the rules of @stormhook/access (the ones identity's CheckAccess runs) decide role
 *    (403), subscription (402), endpoint in plan (403) and geography (403 with the location
 *    message), with the exact texts of interface.md section 7. The role every downstream service
 *    sees is the snapshot's, never the token's claim;
 * 4. metered calls are counted in memory by the quota meter, which syncs with the other replicas
 *    through the database on an interval (429 with Retry-After once spent); every answer after that
 *    carries the RateLimit headers, and only successful answers keep their count.
 */
export function accessGuards(deps: AccessGuardDeps): (operation: RouteSpec) => RequestHandler[] {
  const now = deps.now ?? (() => new Date());

  const authenticate: RequestHandler = async (req, res, next) => {
    const authorization = header(req, 'authorization');
    const apiKey = header(req, 'x-api-key');
    if (authorization !== undefined && apiKey !== undefined) {
      throw unauthorized(res, 'Send either Authorization: Bearer or X-API-Key, not both', 'invalid_request');
    }
    let principal: identityV1.Principal | undefined;
    let claimed: ClaimedCaller;
    if (authorization !== undefined) {
      const token = BEARER.exec(authorization.trim())?.[1];
      if (!token) throw unauthorized(res, 'The Authorization header must be "Bearer <accessToken>"', 'invalid_request');
      const verifier = await deps.tokenKeys.verifierFor(AccessTokenVerifier.kidOf(token));
      if (!verifier) throw new ApiError(503, ErrorMessages.serviceUnavailable);
      const checked = await verifier.verify(token, now());
      if (!checked.ok) throw unauthorized(res, checked.reason === 'expired' ? 'The access token has expired' : 'Invalid access token', 'invalid_token');
      principal = { ...checked.principal, accountId: checked.principal.accountId ?? '', via: 'access-token' };
      claimed = {
        userId: principal.userId,
        via: 'access-token',
        issuedAtSeconds: checked.issuedAtSeconds,
        ...(principal.accountId ? { accountId: principal.accountId } : {}),
      };
    } else if (apiKey !== undefined) {
      const key = await deps.apiKeys.verify(apiKey.trim());
      if (!key) throw unauthorized(res, 'Invalid API key');
      principal = key.principal;
      claimed = { userId: principal.userId, via: 'api-key', ...(principal.accountId ? { accountId: principal.accountId } : {}) };
    } else {
      throw unauthorized(res, ErrorMessages.unauthorized);
    }
    claims.set(req, claimed);
    setAuthState(req, { principal });
    next();
  };

  const authorize =
    (operation: RouteSpec): RequestHandler =>
    async (req, res, next) => {
      const claimed = claims.get(req) ?? claimOf(principalOf(req));
      const snapshot = await deps.snapshots.get(claimed.userId).catch((error: unknown) => {
        throw unavailable(error);
      });
      const current = currentPrincipal(snapshot, claimed);
      if (!current) throw unauthorized(res, SESSION_ENDED, 'invalid_token');
      const location = queriedPoint(operation.operationId, req.body) ?? (await queriedArea(operation, req));
      const decision = decisionResponse(
        await decideAccess(current, operation.operationId, location, {
          account: () => snapshot?.account,
          resolve: (point) => deps.geo.resolve(point),
          now: now(),
        }),
      );
      // Downstream services (alarm-matcher, notifier, identity) act on this principal: its role is the current one.
      const state = {
        principal: { userId: current.userId, accountId: current.accountId ?? '', role: current.role, username: current.username, via: current.via },
      };
      if (!decision.allowed) {
        if (decision.httpStatus === 401) throw unauthorized(res, decision.message, 'invalid_token');
        throw new ApiError(decision.httpStatus >= 400 && decision.httpStatus < 500 ? decision.httpStatus : 403, decision.message || ErrorMessages.forbidden);
      }
      setAuthState(req, { ...state, access: decision });
      if (ACCESS_CHANGING.has(operation.operationId)) {
        res.on('finish', () => {
          if (res.statusCode >= 400) return;
          deps.snapshots.clear();
          const keyId = req.params['keyId'];
          if (operation.operationId === 'revokeApiKey' && typeof keyId === 'string') deps.apiKeys.evictKey(keyId);
        });
      }
      const quota = decision.quota;
      if (decision.metered && quota && decision.accountId) {
        const window: MeteredWindow = {
          accountId: decision.accountId,
          service: decision.service,
          limit: quota.limit,
          start: new Date(quota.windowStartEpochMs),
          end: new Date(quota.windowEndEpochMs),
        };
        const counted = await deps.meter.consume(window).catch((error: unknown) => {
          throw unavailable(error);
        });
        res.set(quotaHeaders(counted));
        if (!counted.allowed) throw new ApiError(429, ErrorMessages.subscriptionLimitExceeded);
        // Only a successful call keeps its count: validation errors, failures and our own faults are given back.
        res.on('finish', () => {
          if (res.statusCode < 400) return;
          deps.meter.refund(window).catch((error: unknown) => deps.logger.warn({ err: error, operationId: operation.operationId }, 'quota refund failed'));
        });
      }
      next();
    };

  /** An area the operation names by id, resolved through geo (cached) for the geography check. */
  const queriedArea = async (operation: RouteSpec, req: Request): Promise<QueriedArea | undefined> => {
    const ref = queriedAreaRef(operation.operationId, req.body, req.params);
    return ref ? deps.geo.resolveArea(ref) : undefined;
  };

  /**
   * Open operations that identify a caller: none sent, nothing to do; sent, the same checks as for
   * an authenticated operation up to the current role (no access rules: the operation is open).
   */
  const identifyIfPresent: RequestHandler = async (req, res, next) => {
    if (header(req, 'authorization') === undefined && header(req, 'x-api-key') === undefined) return next();
    await authenticate(req, res, () => undefined);
    const claimed = claims.get(req) ?? claimOf(principalOf(req));
    const snapshot = await deps.snapshots.get(claimed.userId).catch((error: unknown) => {
      throw unavailable(error);
    });
    const current = currentPrincipal(snapshot, claimed);
    if (!current) throw unauthorized(res, SESSION_ENDED, 'invalid_token');
    setAuthState(req, {
      principal: { userId: current.userId, accountId: current.accountId ?? '', role: current.role, username: current.username, via: current.via },
    });
    next();
  };

  return (operation) => {
    if (!operation.authenticated) return operation.identifiesCaller ? [identifyIfPresent] : [];
    const readsBody = (LOCATION_OF[operation.operationId] ?? AREA_OF[operation.operationId]) !== undefined && operation.request.body !== undefined;
    // The body is parsed here (415, 413, malformed JSON as usual) so its point can be checked; the
    // operation's own parser then sees it already read and passes.
    return [authenticate, ...(readsBody ? jsonBody(deps.bodyLimitBytes) : []), authorize(operation)];
  };
}

function claimOf(principal: identityV1.Principal): ClaimedCaller {
  return {
    userId: principal.userId,
    via: principal.via === 'api-key' ? 'api-key' : 'access-token',
    ...(principal.accountId ? { accountId: principal.accountId } : {}),
  };
}
