import type { Logger } from '@stormhook/logger';
import type { Collection, Db, Document, IndexDirection } from 'mongodb';
import { serverTraits, type ServerTraits } from './server-traits.js';

/**
 * A named index. Names are required so that a changed definition is noticed instead of duplicated.
 * Only options that behave the same on MongoDB and FerretDB 1.24 are offered: FerretDB rejects
 * `partialFilterExpression` (code 238), silently drops `sparse`, and has no TTL or geo indexes.
 */
export interface IndexSpec {
  name: string;
  /** Field order matters: `{ ownerId: 1, createdAt: -1 }`. */
  key: Record<string, IndexDirection>;
  unique?: boolean;
}

export interface EnsureIndexesResult {
  created: string[];
  unchanged: string[];
  /** Non-unique indexes left out because the server would never use them (see ensureIndexes). */
  skipped?: string[];
}

export interface EnsureIndexesOptions {
  /**
   * The server's traits (serverTraits). Where queries do not use secondary indexes (FerretDB 1.x),
   * non-unique specs are not created: they would cost a write on every insert and serve no query.
   * Unique specs are always created, since they enforce. Without traits every spec is created.
   */
  server?: ServerTraits;
}

/** An index exists under the same name (or with the same key) but a different definition. */
export class IndexConflictError extends Error {
  constructor(
    readonly collection: string,
    readonly conflicts: readonly string[],
  ) {
    super(`index conflict on collection ${collection}: ${conflicts.join('; ')}`);
    this.name = 'IndexConflictError';
  }
}

const NAMESPACE_NOT_FOUND = 26;

function canonical(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/** The parts of a definition that change behaviour; the server adds others (v, ns) we do not compare. */
function definitionOf(index: Document): string {
  return canonical({
    key: Object.entries(index['key'] as Document),
    unique: index['unique'] === true,
  });
}

async function existingIndexes(collection: Collection<Document>): Promise<Document[]> {
  try {
    return await collection.listIndexes().toArray();
  } catch (error) {
    // A collection that does not exist yet has no indexes; createIndexes will create it.
    if ((error as { code?: unknown }).code === NAMESPACE_NOT_FOUND) return [];
    throw error;
  }
}

/**
 * Creates the missing indexes of `specs`; safe to call at every start (a second call creates
 * nothing). A spec whose name or key is already taken by a DIFFERENT definition throws
 * {@link IndexConflictError} rather than dropping the old index: dropping a unique index while older
 * replicas still run would let duplicates in, so changing an index is a deliberate migration.
 * FerretDB silently accepts a conflicting createIndexes, which is why the comparison is done here.
 * Given the server's traits, non-unique specs it would never use are left out (EnsureIndexesOptions);
 * an index of that kind made earlier stays where it is (dropping one is an operator's choice).
 */
export async function ensureIndexes<T extends Document>(
  collection: Collection<T>,
  all: readonly IndexSpec[],
  { server }: EnsureIndexesOptions = {},
): Promise<EnsureIndexesResult> {
  const unused = server && !server.queriesUseSecondaryIndexes ? all.filter((spec) => spec.unique !== true) : [];
  const specs = all.filter((spec) => !unused.includes(spec));
  const target = collection as unknown as Collection<Document>;
  const existing = await existingIndexes(target);
  const byName = new Map(existing.map((index) => [String(index['name']), index]));
  const byKey = new Map(existing.map((index) => [canonical(Object.entries(index['key'] as Document)), index]));

  const conflicts: string[] = [];
  const missing: IndexSpec[] = [];
  const unchanged: string[] = [];
  for (const spec of specs) {
    const wanted = definitionOf(spec as unknown as Document);
    const sameName = byName.get(spec.name);
    const sameKey = byKey.get(canonical(Object.entries(spec.key)));
    if (sameName) {
      if (definitionOf(sameName) === wanted) unchanged.push(spec.name);
      else conflicts.push(`"${spec.name}" exists with definition ${definitionOf(sameName)}, wanted ${wanted}`);
    } else if (sameKey) {
      conflicts.push(`"${spec.name}" has the key of existing index "${String(sameKey['name'])}"`);
    } else {
      missing.push(spec);
    }
  }
  if (conflicts.length > 0) throw new IndexConflictError(collection.collectionName, conflicts);

  if (missing.length > 0) {
    await target.createIndexes(
      missing.map((spec) => ({
        name: spec.name,
        key: spec.key,
        ...(spec.unique !== undefined ? { unique: spec.unique } : {}),
      })),
    );
  }
  const result: EnsureIndexesResult = { created: missing.map((spec) => spec.name), unchanged };
  if (unused.length > 0) result.skipped = unused.map((spec) => spec.name);
  return result;
}

/** What ensureDatabaseIndexes did: the server's traits and the indexes it left out, as `collection.index`. */
export interface DatabaseIndexesResult {
  server: ServerTraits;
  skipped: string[];
}

/**
 * Every collection's indexes of one service's database, given as `[collection name, specs]`, made
 * with the server's traits (one `buildInfo`); logs once, at info, what this server would never use.
 */
export async function ensureDatabaseIndexes(
  db: Db,
  plan: ReadonlyArray<readonly [string, readonly IndexSpec[]]>,
  { logger }: { logger?: Logger } = {},
): Promise<DatabaseIndexesResult> {
  const server = await serverTraits(db);
  const skipped: string[] = [];
  for (const [name, specs] of plan) {
    if (specs.length === 0) continue;
    const result = await ensureIndexes(db.collection(name), specs, { server });
    for (const index of result.skipped ?? []) skipped.push(`${name}.${index}`);
  }
  if (skipped.length > 0)
    logger?.info(
      { server: server.name, skipped },
      'non-unique indexes not made: this database answers those filters by scanning, so they would only cost writes',
    );
  return { server, skipped };
}
