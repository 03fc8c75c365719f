import type { Result as Outcome } from '@stormhook/errors';
import type { IdentityError } from './errors.js';

/**
 * What every use case answers: a value or an {@link IdentityError} the caller must handle. Expected
 * failures (wrong password, foreign id, bad field) are values, not exceptions, so a transport maps
 * them exhaustively; only infrastructure failures (database down) are thrown.
 */
export type Result<T> = Outcome<T, IdentityError>;

export { ok, fail } from '@stormhook/errors';
