import type { Result as Outcome } from '@stormhook/errors';

/**
 * The expected failures of the alarm matcher, as values. Messages are safe to show to the API caller
 * and name the request field (in the public JSON spelling) where one is at fault.
 */
export type AlarmError =
  /** Unknown id, another account's registration, or one of another kind: 404 (OWASP API1). */
  | { kind: 'not-found'; message: string }
  /** A request field is wrong; `field` is its path in the public request body: 400. */
  | { kind: 'validation'; field: string; message: string }
  /** The request cannot be applied in the current state (no account, no stored webhook): 400. */
  | { kind: 'precondition'; reason: PreconditionReason; message: string }
  /** Conflicts with what is stored (same recipient and area, different webhook): 409. */
  | { kind: 'conflict'; reason: ConflictReason; message: string }
  /** Authenticated but not allowed (another account's list, operator operations): 403. */
  | { kind: 'forbidden'; message: string }
  /** A service this one needs (geo, notifier, identity, query's weather history) does not answer: 503. */
  | { kind: 'unavailable'; dependency: Dependency; message: string };

/** The services the matcher calls for an API caller. */
export type Dependency = 'geo' | 'notifier' | 'identity' | 'query';

export type PreconditionReason = 'ACCOUNT_REQUIRED' | 'WEBHOOK_NOT_FOUND' | 'WEBHOOK_ACCOUNT_MISMATCH';
export type ConflictReason = 'REGISTRATION_EXISTS' | 'WEBHOOK_DIFFERS';
export type AlarmErrorKind = AlarmError['kind'];

/** What every use case answers; only infrastructure failures (database down) are thrown. */
export type Result<T> = Outcome<T, AlarmError>;

export { ok, fail } from '@stormhook/errors';

export function notFound(message: string): AlarmError {
  return { kind: 'not-found', message };
}

/** A validation error whose message starts with the field path, so a list of them reads well. */
export function invalid(field: string, message: string): AlarmError {
  return { kind: 'validation', field, message: message.startsWith(field) ? message : `${field} ${message}` };
}

export function precondition(reason: PreconditionReason, message: string): AlarmError {
  return { kind: 'precondition', reason, message };
}

export function conflict(reason: ConflictReason, message: string): AlarmError {
  return { kind: 'conflict', reason, message };
}

export function forbidden(message: string): AlarmError {
  return { kind: 'forbidden', message };
}

export function unavailable(dependency: Dependency, message: string): AlarmError {
  return { kind: 'unavailable', dependency, message };
}

/** The public HTTP status of each kind; the gRPC transport sends it as ErrorDetail.http_status. */
export const HTTP_STATUS_OF: Readonly<Record<AlarmErrorKind, number>> = {
  'not-found': 404,
  validation: 400,
  precondition: 400,
  conflict: 409,
  forbidden: 403,
  unavailable: 503,
};
