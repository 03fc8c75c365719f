import type { Collection, Document, IndexDirection } from 'mongodb';

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
 */
export async function ensureIndexes<T extends Document>(collection: Collection<T>, specs: readonly IndexSpec[]): Promise<EnsureIndexesResult> {
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
  return { created: missing.map((spec) => spec.name), unchanged };
}
