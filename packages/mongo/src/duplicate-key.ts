/** Server codes for a unique-index violation: 11000, and the legacy 11001 and 12582 of old servers. */
const DUPLICATE_KEY_CODES = new Set([11000, 11001, 12582]);

interface WithCode {
  code?: unknown;
  message?: unknown;
  writeErrors?: unknown;
}

function hasDuplicateCode(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { code } = value as WithCode;
  return typeof code === 'number' && DUPLICATE_KEY_CODES.has(code);
}

/**
 * FerretDB 1.x on SQLite reports a unique violation caused by an UPDATE (updateOne, replaceOne,
 * findOneAndUpdate, bulk updates; inserts and upserts are fine) as InternalError code 1 carrying
 * SQLite's "UNIQUE constraint failed". Real MongoDB says 11000. Recognising both keeps services
 * behaving the same in development and in production.
 */
function isFerretSqliteUniqueViolation(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message } = value as WithCode;
  return code === 1 && typeof message === 'string' && message.includes('UNIQUE constraint failed');
}

/**
 * True when a write failed because a unique index already holds the key: the signal for "already
 * done" in idempotent handlers and for 409 Conflict in APIs. Structural, so it works on any copy of
 * the driver's error classes, including bulk write errors whose first failure is in `writeErrors`.
 */
export function isDuplicateKeyError(err: unknown): boolean {
  if (hasDuplicateCode(err) || isFerretSqliteUniqueViolation(err)) return true;
  const writeErrors = typeof err === 'object' && err !== null ? (err as WithCode).writeErrors : undefined;
  const list: unknown[] = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  return list.some((w) => hasDuplicateCode(w) || isFerretSqliteUniqueViolation(w));
}
