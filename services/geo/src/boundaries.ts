import { findRepoRoot } from '@stormhook/config';
import type { Logger } from '@stormhook/logger';
import { GeoQueries } from './domain/geo-queries.js';
import { buildGeoSnapshot } from './domain/geo-snapshot.js';
import { GeoSourceError, resolveGeoSource } from './import/geo-source.js';
import { importBoundaries } from './import/import-boundaries.js';
import type { ImportReport } from './import/import-report.js';
import type { AreaRepository } from './persistence/area-repository.js';

export interface LoadBoundariesOptions {
  source: string | undefined;
  importOnStart: boolean;
  fallbackLimitM: number;
  /** Where to look for ../shared/data/geo when no source is configured. */
  searchFrom: string;
}

/** Logs what an import did: the counts, and the first rejects with their reasons. */
export function logImportReport(logger: Logger, report: ImportReport): void {
  logger.info(
    {
      source: report.source,
      accepted: report.accepted,
      rejected: report.rejected.length,
      inserted: report.inserted,
      updated: report.updated,
      unchanged: report.unchanged,
      durationMs: Math.round(report.durationMs),
    },
    'boundary import finished',
  );
  for (const reject of report.rejected.slice(0, 20)) logger.warn({ reject }, 'boundary feature rejected');
}

/**
 * Brings the database up to date with the configured boundary source (idempotent: unchanged areas
 * are not written), then builds the in-memory snapshot every query reads. Without any source the
 * service still starts on what the database already holds, after saying once, clearly, where to
 * get boundary data and how to point at it.
 */
export async function loadBoundaries(repo: AreaRepository, logger: Logger, opts: LoadBoundariesOptions): Promise<GeoQueries> {
  if (opts.importOnStart) {
    try {
      const { source } = resolveGeoSource(opts.source, findRepoRoot(opts.searchFrom));
      const report = await importBoundaries(source, repo, logger);
      logImportReport(logger, report);
      await repo.recordImportRun(report);
    } catch (error) {
      if (!(error instanceof GeoSourceError)) throw error;
      logger.warn(error.message);
    }
  }
  const areas = await repo.loadAll();
  const snapshot = buildGeoSnapshot(areas, { fallbackLimitM: opts.fallbackLimitM });
  logger.info({ areas: areas.length, indexBuildMs: Math.round(snapshot.buildMs) }, 'spatial index built');
  if (areas.length === 0) logger.warn('no boundaries stored: every point resolves to nothing until an import runs');
  return new GeoQueries(snapshot);
}
