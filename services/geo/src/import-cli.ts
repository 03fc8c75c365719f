#!/usr/bin/env node
// Imports boundary GeoJSON into the geo database by hand:
//   node services/geo/dist/import-cli.js <directory-or-url>
// with the same environment as the service (MONGO_URL, STORMHOOK_DB_PREFIX). The running service
// picks the new areas up at its next start.
import { findRepoRoot } from '@stormhook/config';
import { createLogger } from '@stormhook/logger';
import { connectMongo, serviceDatabase } from '@stormhook/mongo';
import { logImportReport } from './boundaries.js';
import { loadConfig } from './config.js';
import { resolveGeoSource } from './import/geo-source.js';
import { importBoundaries } from './import/import-boundaries.js';
import { AreaRepository } from './persistence/area-repository.js';
import { fileURLToPath } from 'node:url';

async function main(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger({ service: 'geo-import', level: config.LOG_LEVEL });
  const { source } = resolveGeoSource(process.argv[2] ?? config.STORMHOOK_GEO_SOURCE, findRepoRoot(fileURLToPath(import.meta.url)));
  const mongo = await connectMongo({
    url: config.MONGO_URL,
    dbName: serviceDatabase('geo', config.STORMHOOK_DB_PREFIX),
    appName: 'stormhook-geo-import',
    logger,
  });
  try {
    const repo = await AreaRepository.open(mongo.db, logger);
    const report = await importBoundaries(source, repo, logger);
    logImportReport(logger, report);
    await repo.recordImportRun(report);
    return report.accepted > 0 ? 0 : 1;
  } finally {
    await mongo.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
