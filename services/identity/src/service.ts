import { startGrpcService, type PlatformOptions, type RunningGrpcService } from '@stormhook/service-kit';
import type { Config } from './config.js';

/**
 * Starts the identity service (users, accounts, credentials and subscriptions; its gRPC API lands with the identity issue). For now it connects to Kafka and its
 * database and answers the standard gRPC health check, SERVING while both answer.
 */
export function start(config: Config, opts: PlatformOptions = {}): Promise<RunningGrpcService> {
  return startGrpcService('identity', config, () => ({}), opts);
}
