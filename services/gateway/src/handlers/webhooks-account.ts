import type { Request } from 'express';
import { ApiError } from '@stormhook/errors';
import { GrpcError, GrpcStatus, type GrpcClient } from '@stormhook/grpc';
import type { identityV1 } from '@stormhook/proto';
import { principalOf } from '../http/auth-state.js';
import { validatedInput } from '../http/request-state.js';

/** The one identity call account resolution needs. */
export type AccountLookup = Pick<GrpcClient<typeof identityV1.IdentityService>, 'getAccount'>;

export const NO_ACCOUNT_MESSAGE = 'This operation needs an account: create one with POST /v1/accounts/create first';
/**
 * What a non-ADMIN naming another account gets: the notifier's own answer for an account without a
 * webhook, a 404 like every other object of another account (OWASP API1), so it tells nothing.
 */
export const FOREIGN_ACCOUNT_MESSAGE = 'No webhook is stored for this account';

/**
 * The caller's own account: from the token, or (for a token issued before the account existed)
 * looked up in identity. A caller without one gets a 403 that says how to get one.
 */
export async function ownAccountId(principal: identityV1.Principal, identity: AccountLookup): Promise<string> {
  if (principal.accountId) return principal.accountId;
  try {
    const account = await identity.getAccount({ actor: principal, userId: principal.userId });
    if (account.id) return account.id;
  } catch (error) {
    if (!(error instanceof GrpcError && error.code === GrpcStatus.NOT_FOUND)) throw error;
  }
  throw new ApiError(403, NO_ACCOUNT_MESSAGE);
}

/**
 * The account an operation acts on: the caller's own, or for ADMIN the `accountId` query parameter.
 * Anyone else naming an account other than their own gets a 404, whether it exists or not; their
 * own is accepted, so a client may always send it.
 */
export async function targetAccountId(req: Request, identity: AccountLookup): Promise<string> {
  const principal = principalOf(req);
  const named = validatedInput(req).query['accountId'];
  if (typeof named === 'string' && named !== '') {
    if (principal.role === 'ADMIN') return named;
    if (named === (await ownAccountId(principal, identity))) return named;
    throw new ApiError(404, FOREIGN_ACCOUNT_MESSAGE);
  }
  return ownAccountId(principal, identity);
}
