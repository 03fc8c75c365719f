import { startGrpcService, type PlatformOptions, type RunningGrpcService } from '@stormhook/service-kit';
import type { Config } from './config.js';

/**
 * Starts the ingest service (the gate for data feeds; its consumers land with the weather-data issue). For now it connects to Kafka and its
 * database and answers the standard gRPC health check, SERVING while both answer.
 */
export function start(config: Config, opts: PlatformOptions = {}): Promise<RunningGrpcService> {
  return startGrpcService('ingest', config, () => ({}), opts);
}
