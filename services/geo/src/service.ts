import { fileURLToPath } from 'node:url';
import { geoV1 } from '@stormhook/proto';
import { startGrpcService, type PlatformOptions, type RunningGrpcService } from '@stormhook/service-kit';
import { loadBoundaries } from './boundaries.js';
import type { Config } from './config.js';
import { AreaRepository } from './persistence/area-repository.js';
import { geoHandlers } from './transport/grpc-handlers.js';

/**
 * Starts the geo service: imports the configured boundaries (a no-op when nothing changed), builds
 * the in-memory spatial index from the database, and serves the GeoService gRPC API.
 */
export function start(config: Config, opts: PlatformOptions = {}): Promise<RunningGrpcService> {
  return startGrpcService(
    'geo',
    config,
    async (platform, server) => {
      const repo = await AreaRepository.open(platform.mongo.db, platform.logger);
      const queries = await loadBoundaries(repo, platform.logger, {
        source: config.STORMHOOK_GEO_SOURCE,
        importOnStart: config.GEO_IMPORT_ON_START,
        fallbackLimitM: config.GEO_FALLBACK_LIMIT_M,
        searchFrom: fileURLToPath(import.meta.url),
      });
      server.add(
        geoV1.GeoService,
        geoHandlers(() => queries),
      );
      return {};
    },
    opts,
  );
}
