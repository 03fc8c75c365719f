import type { Logger } from '@stormhook/logger';
import { areaKey } from '../domain/area.js';
import { BOUNDARY_FILES } from './boundary-files.js';
import type { BoundaryStore, HashedArea } from './boundary-store.js';
import { areaContentHash } from './content-hash.js';
import type { ImportReport } from './import-report.js';
import { parseBoundaries, type ParseOptions } from './parse-boundaries.js';
import { describeSource } from './read-source.js';

export interface ImportOptions extends Omit<ParseOptions, 'storedKeys'> {
  /** Areas per write; each is a few kB to a few hundred kB of coordinates. Default 100. */
  readonly batchSize?: number;
}

/** The source has none of the expected files: almost certainly a wrong path, so nothing is recorded. */
export class NoBoundaryFilesError extends Error {
  override readonly name = 'NoBoundaryFilesError';
}

/**
 * Imports boundary GeoJSON from a directory or an http(s) URL: validates every feature (rejects are
 * reported with their reason, the rest still imports), then writes only the areas whose content hash
 * differs from the stored one. Importing the same data twice therefore writes nothing the second
 * time. Areas that disappeared from the source are kept: dropping a boundary that alarms still
 * reference is a decision for an operator, not a side effect of an import.
 */
export async function importBoundaries(source: string, store: BoundaryStore, logger: Logger, options: ImportOptions = {}): Promise<ImportReport> {
  const startedAt = new Date();
  const started = performance.now();
  const shownSource = describeSource(source);
  logger.info({ source: shownSource }, 'boundary import started');

  const stored = await store.contentHashes();
  const storedKeys = new Set(stored.keys());
  const parsed = await parseBoundaries(source, logger, { ...options, storedKeys });
  if (parsed.files.every((f) => f.status === 'missing')) {
    const expected = (options.files ?? BOUNDARY_FILES).map((f) => f.file).join(', ');
    throw new NoBoundaryFilesError(`no boundary files found at ${shownSource}: expected any of ${expected}`);
  }

  const changed: HashedArea[] = [];
  let unchanged = 0;
  let inserted = 0;
  let updated = 0;
  for (const area of parsed.areas) {
    const contentHash = areaContentHash(area);
    const previous = stored.get(areaKey(area));
    if (previous === contentHash) {
      unchanged++;
      continue;
    }
    if (previous === undefined) inserted++;
    else updated++;
    changed.push({ area, contentHash });
  }

  const batchSize = options.batchSize ?? 100;
  for (let from = 0; from < changed.length; from += batchSize) {
    await store.upsertAreas(changed.slice(from, from + batchSize), storedKeys);
    const written = Math.min(changed.length, from + batchSize);
    if (changed.length > batchSize) logger.info({ written, total: changed.length }, 'writing areas');
  }

  const report: ImportReport = {
    source: shownSource,
    startedAt,
    durationMs: Math.round(performance.now() - started),
    files: parsed.files,
    accepted: parsed.areas.length,
    rejected: parsed.rejected,
    unchanged,
    inserted,
    updated,
  };
  await store.recordImportRun(report);
  const { rejected, files, ...counts } = report;
  logger.info({ ...counts, rejectedCount: rejected.length }, 'boundary import finished');
  for (const reject of rejected.slice(0, 20)) logger.warn(reject, 'boundary feature rejected');
  if (rejected.length > 20) logger.warn({ more: rejected.length - 20 }, 'more boundary features rejected; see the import run');
  return report;
}
