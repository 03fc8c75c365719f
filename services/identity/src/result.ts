import type { IdentityError } from './errors.js';

/**
 * What every use case answers: a value or an {@link IdentityError} the caller must handle. Expected
 * failures (wrong password, foreign id, bad field) are values, not exceptions, so a transport maps
 * them exhaustively; only infrastructure failures (database down) are thrown.
 */
export type Result<T> = { ok: true; value: T } | { ok: false; error: IdentityError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(error: IdentityError): Result<T> {
  return { ok: false, error };
}
