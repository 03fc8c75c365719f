import type { AccessAccount } from './decide-access.js';
import type { Principal } from './principal.js';
import type { Role } from './roles.js';
import { issuedBeforeValidFrom } from './token-validity.js';
import { canSignIn, type UserStatus } from './user-status.js';

/**
 * Everything an access decision reads about one user, as identity has it at one moment. The gateway
 * keeps these in memory (refreshed on identity.user-changed.v1 and after a short expiry), so a
 * request needs no database read; identity builds the same from its database for CheckAccess.
 */
export interface AccessSnapshot {
  userId: string;
  username: string;
  role: Role;
  status: UserStatus;
  /** Absent while the user has no account. */
  account?: AccessAccount;
  /** Access tokens issued before this instant are refused (logout, password reset); absent: none ended yet. */
  accessTokensValidFrom?: Date;
}

/** What the credential (access token or API key) established before the user's current state is read. */
export interface ClaimedCaller {
  userId: string;
  via: 'access-token' | 'api-key';
  /** The account the credential named, used only while the user has no account on record. */
  accountId?: string;
  /**
   * The access token's `iat`, epoch seconds. Absent only where a party that already checked it vouches
   * for the caller (identity trusting the gateway's internal token) and for API keys, which are
   * revoked one by one instead.
   */
  issuedAtSeconds?: number;
}

/**
 * The caller as the user's current state makes them: role, username and account come from the
 * snapshot, never from the credential, so a demotion or a block takes effect as soon as the snapshot
 * does. Undefined: the user may no longer act (unknown, not ACTIVE, an access token issued before the
 * user's tokens were ended, or an API key of a user who is no longer an API_USER: they keep their
 * keys on record, but the keys stop working).
 */
export function currentPrincipal(snapshot: AccessSnapshot | undefined, claimed: ClaimedCaller): Principal | undefined {
  if (!snapshot || snapshot.userId !== claimed.userId || !canSignIn(snapshot.status)) return undefined;
  if (claimed.via === 'api-key' && snapshot.role !== 'API_USER') return undefined;
  if (
    claimed.via === 'access-token' &&
    claimed.issuedAtSeconds !== undefined &&
    issuedBeforeValidFrom(claimed.issuedAtSeconds, snapshot.accessTokensValidFrom)
  ) {
    return undefined;
  }
  const accountId = snapshot.account?.id ?? claimed.accountId;
  return { userId: snapshot.userId, role: snapshot.role, username: snapshot.username, via: claimed.via, ...(accountId ? { accountId } : {}) };
}
