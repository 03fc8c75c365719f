/**
 * The expected failures of identity, as values. Messages are safe to show to the caller: they never
 * say whether a user exists (login, reset) nor carry a secret.
 */
export type IdentityError =
  /** The object does not exist OR belongs to someone else (a foreign id answers 404, not 403). */
  | { kind: 'not-found'; entity: IdentityEntity; message: string }
  /** Wrong username/password, unknown or revoked token or key: 401. */
  | { kind: 'invalid-credentials'; message: string }
  /** Already exists (username, account of a user): 409. */
  | { kind: 'conflict'; message: string }
  /** Authenticated but not allowed (role, self-service limits): 403. */
  | { kind: 'forbidden'; message: string }
  /** A request field is wrong; `field` is its path in the request body: 400. */
  | { kind: 'validation'; field: string; message: string }
  /** Too many attempts; retry after the given number of seconds: 429. */
  | { kind: 'rate-limited'; retryAfterSeconds: number; message: string }
  /** A one-time token or code that was used, superseded or is past its expiry: 400 (410 would hide the reason). */
  | { kind: 'expired'; message: string };

export type IdentityEntity = 'user' | 'account' | 'api-key' | 'subscription';
export type IdentityErrorKind = IdentityError['kind'];

export function notFound(entity: IdentityEntity, message = `${entity} not found`): IdentityError {
  return { kind: 'not-found', entity, message };
}

export function invalidCredentials(message = 'Invalid username or password'): IdentityError {
  return { kind: 'invalid-credentials', message };
}

export function conflict(message: string): IdentityError {
  return { kind: 'conflict', message };
}

export function forbidden(message = 'Access is denied'): IdentityError {
  return { kind: 'forbidden', message };
}

export function validation(field: string, message: string): IdentityError {
  return { kind: 'validation', field, message: message.startsWith(field) ? message : `${field}: ${message}` };
}

export function rateLimited(retryAfterSeconds: number, message = 'Too many attempts, try again later'): IdentityError {
  return { kind: 'rate-limited', retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)), message };
}

export function expired(message: string): IdentityError {
  return { kind: 'expired', message };
}

/** The HTTP status a transport answers with for each kind (the gRPC layer maps through the same table). */
export const HTTP_STATUS_OF: Readonly<Record<IdentityErrorKind, number>> = {
  'not-found': 404,
  'invalid-credentials': 401,
  conflict: 409,
  forbidden: 403,
  validation: 400,
  'rate-limited': 429,
  expired: 400,
};
