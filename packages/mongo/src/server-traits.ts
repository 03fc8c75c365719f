import type { Db, Document } from 'mongodb';

/** What a server does with the indexes we would give it. */
export interface ServerTraits {
  /** `mongodb <version>` or `ferretdb <version>`, for logs. */
  name: string;
  /**
   * Whether filters and sorts on other fields than `_id` are answered from secondary indexes.
   * FerretDB 1.x on SQLite answers them by scanning the table (its query plan says `SCAN <table>`
   * with or without an index on the field; measured in mongo.int.spec.ts), yet keeps every such index
   * current on each insert: a random-keyed index costs a page write per document in SQLite's WAL.
   */
  queriesUseSecondaryIndexes: boolean;
}

/** The traits of the server whose `buildInfo` answer this is. */
export function traitsOf(buildInfo: Document): ServerTraits {
  const ferret = buildInfo['ferretdbVersion'];
  if (typeof ferret === 'string') {
    const major = Number(/^v?(\d+)\./.exec(ferret)?.[1] ?? NaN);
    // FerretDB 2 runs on PostgreSQL with DocumentDB, which plans with indexes; 1.x does not.
    return { name: `ferretdb ${ferret}`, queriesUseSecondaryIndexes: !(major <= 1) };
  }
  return { name: `mongodb ${String(buildInfo['version'] ?? 'unknown')}`, queriesUseSecondaryIndexes: true };
}

/** Asks the server once (`buildInfo`, which every role may run). */
export async function serverTraits(db: Db): Promise<ServerTraits> {
  return traitsOf(await db.command({ buildInfo: 1 }));
}
