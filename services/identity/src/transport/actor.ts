import { actingPrincipal, GrpcError, GrpcStatus, type ServerCall } from '@stormhook/grpc';
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
 * The caller as identity sees it now. Who calls comes only from the verified internal token (the
 * gateway signs the principal it authenticated); a request whose `actor` names someone else is
 * PERMISSION_DENIED. Identity re-reads the user, so a role change or a block takes effect at once
 * instead of when the access token expires. Undefined: the user may no longer act, or the call is a
 * service's own (no principal).
 */
export async function currentPrincipal(
  users: UserRepository,
  call: ServerCall,
  claimed: identityV1.Principal | null | undefined,
): Promise<Principal | undefined> {
  const verified = actingPrincipal(call, claimed);
  if (!verified?.userId) return undefined;
  return principalOf(users, verified);
}

/** The user's current state applied to a principal some party vouches for. */
export async function principalOf(users: UserRepository, vouched: identityV1.Principal): Promise<Principal | undefined> {
  const user = await users.findById(vouched.userId);
  const via = vouched.via === 'api-key' ? 'api-key' : 'access-token';
  // The same rule as the gateway's in-memory check; the account stays the one the credential named.
  return principalFrom(user && { userId: user.userId, username: user.username, role: user.role, status: user.status }, {
    userId: vouched.userId,
    via,
    ...(vouched.accountId ? { accountId: vouched.accountId } : {}),
  });
}

/** {@link currentPrincipal}, or UNAUTHENTICATED (401) for an rpc that needs a caller. */
export async function requireActor(users: UserRepository, call: ServerCall, claimed: identityV1.Principal | null | undefined): Promise<Principal> {
  const principal = await currentPrincipal(users, call, claimed);
  if (!principal) throw unauthenticated(call.caller?.principal?.userId ? SESSION_ENDED : ErrorMessages.unauthorized);
  return principal;
}
