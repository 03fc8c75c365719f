import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import { commonV1, type identityV1 } from '@stormhook/proto';
import { currentPrincipal as principalFrom, type Principal, SESSION_ENDED } from '@stormhook/access';
import { ErrorMessages } from '@stormhook/errors';
import type { UserRepository } from '../ports/repositories.js';

export function unauthenticated(message: string = ErrorMessages.unauthorized): GrpcError {
  return new GrpcError(
    GrpcStatus.UNAUTHENTICATED,
    message,
    commonV1.ErrorDetail.create({ reason: 'UNAUTHENTICATED', message, messages: [message], httpStatus: 401 }),
  );
}

/**
 * The caller as identity sees it now. The gateway vouches for who the caller is (it verified the
 * token or key); identity re-reads the user, so a role change or a block takes effect at once
 * instead of when the access token expires. Undefined: the user may no longer act.
 */
export async function currentPrincipal(users: UserRepository, claimed: identityV1.Principal | null | undefined): Promise<Principal | undefined> {
  if (!claimed?.userId) return undefined;
  const user = await users.findById(claimed.userId);
  const via = claimed.via === 'api-key' ? 'api-key' : 'access-token';
  // The same rule as the gateway's in-memory check; the account stays the one the credential named.
  return principalFrom(user && { userId: user.userId, username: user.username, role: user.role, status: user.status }, {
    userId: claimed.userId,
    via,
    ...(claimed.accountId ? { accountId: claimed.accountId } : {}),
  });
}

/** {@link currentPrincipal}, or UNAUTHENTICATED (401) for an rpc that needs a caller. */
export async function requireActor(users: UserRepository, claimed: identityV1.Principal | null | undefined): Promise<Principal> {
  const principal = await currentPrincipal(users, claimed);
  if (!principal) throw unauthenticated(claimed?.userId ? SESSION_ENDED : ErrorMessages.unauthorized);
  return principal;
}
