import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@stormhook/grpc';
import { geoV1 } from '@stormhook/proto';
import { startPlatform, type Platform, type PlatformOptions } from '@stormhook/service-kit';
import { createApp } from './app.js';
import { areaHandlers } from './handlers/areas.js';
import type { Config } from './config.js';
import { stackHealth } from './health/stack-health.js';

export interface RunningGateway {
  readonly platform: Platform;
  readonly server: Server;
  /** The port actually bound (tests listen on port 0). */
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts the public /v1 HTTP surface. */
export async function start(config: Config, opts: PlatformOptions = {}): Promise<RunningGateway> {
  const platform = await startPlatform('gateway', config, opts);
  const clientOptions = { deadlineMs: config.GRPC_DEADLINE_MS };
  const geo = createClient(geoV1.GeoService, config.GEO_GRPC_ADDRESS, clientOptions);
  const clients = [geo];
  const app = createApp({
    logger: platform.logger,
    bodyLimitBytes: config.HTTP_BODY_LIMIT_BYTES,
    handlers: {
      ...areaHandlers({ geo, attribution: config.GEO_DATA_ATTRIBUTION }),
    },
    health: stackHealth({
      services: {
        identity: config.IDENTITY_GRPC_ADDRESS,
        geo: config.GEO_GRPC_ADDRESS,
        ingest: config.INGEST_GRPC_ADDRESS,
        query: config.QUERY_GRPC_ADDRESS,
        'alarm-matcher': config.ALARM_MATCHER_GRPC_ADDRESS,
        notifier: config.NOTIFIER_GRPC_ADDRESS,
      },
      dependencies: platform.checks,
    }),
  });
  const server = createServer(app);
  // Behind a load balancer, idle keep-alive sockets must outlive the balancer's own timeout.
  server.keepAliveTimeout = 65_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.HTTP_PORT, config.HTTP_HOST, () => resolve());
    });
  } catch (error) {
    for (const client of clients) client.close();
    await platform.stop();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  platform.logger.info({ port }, 'HTTP server listening');
  return {
    platform,
    server,
    port,
    async stop() {
      // Stop taking requests, let those in flight finish, then release the platform.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      for (const client of clients) client.close();
      await platform.stop();
    },
  };
}
