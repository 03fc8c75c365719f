import { startGrpcService, type PlatformOptions, type RunningGrpcService } from '@stormhook/service-kit';
import type { Config } from './config.js';

/**
 * Starts the query service (weather read models; its consumers and gRPC API land with the weather-data issue). For now it connects to Kafka and its
 * database and answers the standard gRPC health check, SERVING while both answer.
 */
export function start(config: Config, opts: PlatformOptions = {}): Promise<RunningGrpcService> {
  return startGrpcService('query', config, () => ({}), opts);
}
