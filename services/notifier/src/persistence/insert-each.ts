import type { Collection, Document, OptionalUnlessRequiredId } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';

export type InsertResult = 'inserted' | 'duplicate';

interface WriteErrorLike {
  index?: number;
  code?: number;
  errmsg?: string;
}

/**
 * One unordered insertMany that tells each document's fate. A duplicate key is an answer, not a
 * failure: on FerretDB a unique insert is the only atomic "take it if nobody has" there is, so claims
 * and idempotent acceptance are built on it. Any other per-document error fails the whole call (the
 * callers retry the batch; the documents already written come back as duplicates).
 */
export async function insertEach<T extends Document>(collection: Collection<T>, docs: readonly T[]): Promise<InsertResult[]> {
  if (docs.length === 0) return [];
  try {
    await collection.insertMany(
      docs.map((d) => d as OptionalUnlessRequiredId<T>),
      { ordered: false },
    );
    return docs.map(() => 'inserted');
  } catch (error) {
    const writeErrors = (error as { writeErrors?: WriteErrorLike[] | WriteErrorLike }).writeErrors;
    const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
    if (list.length === 0) {
      if (docs.length === 1 && isDuplicateKeyError(error)) return ['duplicate'];
      throw error;
    }
    const failed = new Map(list.map((w) => [w.index ?? -1, w]));
    const other = list.find((w) => !isDuplicateKeyError(w));
    if (other) throw Object.assign(new Error(other.errmsg ?? 'insert failed'), { code: other.code });
    return docs.map((_, index) => (failed.has(index) ? 'duplicate' : 'inserted'));
  }
}
