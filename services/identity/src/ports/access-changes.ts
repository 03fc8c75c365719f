/**
 * What changed about a user in a way that may change what they may do. WARNING: the names travel in
 * identity.user-changed.v1 events; readers may match on them.
 */
export type AccessChange = 'ROLE_OR_STATUS' | 'ACCOUNT' | 'SUBSCRIPTION' | 'API_KEY_CREATED' | 'API_KEY_REVOKED' | 'PASSWORD_RESET' | 'SIGNED_OUT';

/**
 * Tells every gateway replica that what it holds about a user is out of date. Called after the
 * database write. Never rejects: the change is already stored, so the caller's answer must not turn
 * into an error; an event that cannot be published is logged, and the gateways' snapshot expiry
 * bounds how long they act on the old state.
 */
export interface AccessChangePublisher {
  changed(userId: string, change: AccessChange, apiKeyId?: string): Promise<void>;
}
