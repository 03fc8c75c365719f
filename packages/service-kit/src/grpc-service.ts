import { createGrpcServer, type GrpcServer, type GrpcServiceName } from '@stormhook/grpc';
import { DependencyMonitor } from './dependency-monitor.js';
import { internalVerifierOf } from './internal-keys.js';
import { startPlatform, type Platform, type PlatformConfig, type PlatformOptions } from './platform.js';

/** The health-check service name that is SERVING while the process runs, whatever its dependencies do. */
export const LIVENESS_SERVICE = 'stormhook.liveness';

export interface GrpcServiceConfig extends PlatformConfig {
  readonly GRPC_HOST: string;
  readonly GRPC_PORT: number;
  readonly INTERNAL_PUBLIC_KEYS: string;
}

/** What a service adds on top of the platform: its gRPC handlers, consumers and their stop. */
export interface ServiceParts {
  stop?(): Promise<void>;
}

export interface RunningGrpcService {
  readonly platform: Platform;
  readonly server: GrpcServer;
  /** The port actually bound (tests listen on port 0). */
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Starts a gRPC service: platform, the service's own parts (`build` adds handlers to the server
 * and starts its consumers), then listening. The standard health service answers SERVING only
 * while Kafka and the database answer, so probes and the gateway see a dependency outage.
 */
export async function startGrpcService(
  service: GrpcServiceName,
  config: GrpcServiceConfig,
  build: (platform: Platform, server: GrpcServer) => Promise<ServiceParts> | ServiceParts,
  opts: PlatformOptions = {},
): Promise<RunningGrpcService> {
  // Every call must carry an internal token addressed to this service, from a service the edge table
  // lets call it (see @stormhook/grpc), signed with the key of its issuer. Built first: a bad or missing key fails the start before any connection.
  const internalTokens = internalVerifierOf(config, service);
  const platform = await startPlatform(service, config, opts);
  const server = createGrpcServer({ logger: platform.logger, serviceName: service, internalTokens });
  let parts: ServiceParts = {};
  try {
    parts = await build(platform, server);
  } catch (error) {
    await platform.stop();
    throw error;
  }
  // Liveness answers for the process alone: a Kafka or database outage must take a pod out of
  // rotation (the overall status), not get it restarted.
  server.health.setStatus(LIVENESS_SERVICE, 'SERVING');
  const monitor = new DependencyMonitor({
    checks: platform.checks,
    onChange: (healthy, failing) => {
      server.health.setStatus('', healthy ? 'SERVING' : 'NOT_SERVING');
      if (healthy) platform.logger.info('dependencies answer; serving');
      else platform.logger.warn({ failing }, 'dependencies down; health NOT_SERVING');
    },
  });
  await monitor.checkNow();
  monitor.start();
  let port: number;
  try {
    port = await server.listen(`${config.GRPC_HOST}:${config.GRPC_PORT}`);
  } catch (error) {
    monitor.stop();
    await parts.stop?.();
    await platform.stop();
    throw error;
  }
  return {
    platform,
    server,
    port,
    async stop() {
      monitor.stop();
      await server.shutdown();
      await parts.stop?.();
      await platform.stop();
    },
  };
}
