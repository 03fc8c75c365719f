import { startGrpcService, type PlatformOptions, type RunningGrpcService } from '@stormhook/service-kit';
import type { Config } from './config.js';

/**
 * Starts the geo service (administrative areas and point resolution; its gRPC API lands with the geo issue). For now it connects to Kafka and its
 * database and answers the standard gRPC health check, SERVING while both answer.
 */
export function start(config: Config, opts: PlatformOptions = {}): Promise<RunningGrpcService> {
  return startGrpcService('geo', config, () => ({}), opts);
}
