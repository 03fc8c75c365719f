import { startGrpcService, type PlatformOptions, type RunningGrpcService } from '@stormhook/service-kit';
import type { Config } from './config.js';

/**
 * Starts the alarm-matcher service (alarm registrations and matching; they land with the alarms issue). For now it connects to Kafka and its
 * database and answers the standard gRPC health check, SERVING while both answer.
 */
export function start(config: Config, opts: PlatformOptions = {}): Promise<RunningGrpcService> {
  return startGrpcService('alarm-matcher', config, () => ({}), opts);
}
