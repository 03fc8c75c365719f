import type { AnyBulkWriteOperation, Collection, Document } from 'mongodb';

/**
 * FerretDB 1.x wedges on one update command of more than about 100 statements (seen twice: the
 * notifier's claims, and the matcher's episode writes under storm load, when every service on the
 * database stalled). A large unordered bulk write is therefore sent as several commands of this many.
 */
export const MAX_STATEMENTS_PER_COMMAND = 50;

/** An unordered bulk write sent in commands of at most {@link MAX_STATEMENTS_PER_COMMAND} statements. */
export async function bulkWriteInChunks<T extends Document>(collection: Collection<T>, operations: readonly AnyBulkWriteOperation<T>[]): Promise<void> {
  for (let i = 0; i < operations.length; i += MAX_STATEMENTS_PER_COMMAND) {
    await collection.bulkWrite(operations.slice(i, i + MAX_STATEMENTS_PER_COMMAND), { ordered: false });
  }
}
