/**
 * Errors as values: what a use case answers when a failure is expected (a wrong field, a foreign
 * id, a conflict). The caller has to look at `ok` before it can reach the value, so every expected
 * failure is handled where it is mapped (a transport answers a status for each kind); only
 * infrastructure failures (database down) are thrown. Each service names its own error union `E`;
 * the shape and the two constructors live here once.
 */
export type Result<T, E> = Success<T> | Failure<E>;

export interface Success<T> {
  readonly ok: true;
  readonly value: T;
}

export interface Failure<E> {
  readonly ok: false;
  readonly error: E;
}

export function ok<T>(value: T): Success<T> {
  return { ok: true, value };
}

export function fail<E>(error: E): Failure<E> {
  return { ok: false, error };
}
