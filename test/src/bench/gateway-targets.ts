import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { deletePrefixedTopics, dropPrefixedDatabases, freePortBlock, testInfra, uniqueName } from '@stormhook/testing';
import { FeedPublisher } from '../e2e/support/feed-publisher.js';
import { forecastGrid } from '../e2e/support/feed-records.js';
import { repoRoot } from '../e2e/support/repo.js';
import { launchStack } from '../e2e/support/stack-process.js';
import { ADMIN, ApiSession } from '../support/api-session.js';
import { forecastRun, HOUR, PLACES, publishForecast } from '../weather/fixtures.js';
import { eventually, startWeatherStack } from '../weather/support.js';
import { cpuMicrosOf } from './proc-cpu.js';

/** The services the gateway benchmark drives, however they run. */
export interface BenchTarget {
  /** How the services run, as the report names it. */
  readonly label: string;
  readonly session: ApiSession;
  /** Publishes one forecast run whose cell covers `PLACES.istanbul`, and waits until it is served. */
  seedForecast(now: number): Promise<void>;
  /** CPU microseconds the services have used so far (user + system). */
  cpuMicros(): number;
  stop(): Promise<void>;
}

const GRPC_SERVICES = 6;

/**
 * The stack as `npm start` runs it: every service its own process (as every service is its own pod in
 * production), on the shared Kafka and database, under its own instance, prefix and ports. The feed
 * simulator is off (it would load the machine), and so are the per-address limits (every request of
 * the load comes from one address).
 */
export async function processStack(): Promise<BenchTarget> {
  const instance = uniqueName('bench');
  const grpcBasePort = await freePortBlock(GRPC_SERVICES);
  let gatewayPort = await freePortBlock(1);
  while (gatewayPort >= grpcBasePort && gatewayPort < grpcBasePort + GRPC_SERVICES) gatewayPort = await freePortBlock(1);
  const stack = await launchStack(
    {
      instance,
      topicPrefix: instance,
      dbPrefix: instance.replace(/-/g, '_'),
      gatewayPort,
      grpcBasePort,
      admin: { email: ADMIN.username, password: ADMIN.password },
      extraEnv: {
        STORMHOOK_FEED_SIM: '0',
        GATEWAY_ERROR_LIMIT_PER_MIN: '0',
        GATEWAY_AUTH_LIMIT_PER_ADDRESS_PER_MIN: '0',
        // Peer addresses for a stack on other than the default ports (see e2e-stack.ts).
        IDENTITY_GRPC_ADDRESS: `127.0.0.1:${grpcBasePort}`,
        GEO_GRPC_ADDRESS: `127.0.0.1:${grpcBasePort + 1}`,
        NOTIFIER_GRPC_ADDRESS: `127.0.0.1:${grpcBasePort + 5}`,
        // For example "--cpu-prof --cpu-prof-dir=/tmp/profiles": every process writes a profile when it stops.
        ...(process.env['BENCH_STACK_NODE_OPTIONS'] ? { NODE_OPTIONS: process.env['BENCH_STACK_NODE_OPTIONS'] } : {}),
      },
    },
    240_000,
  );
  const session = new ApiSession(stack.baseUrl, 'bench');
  const brokers = testInfra().kafkaBrokers;
  return {
    label: 'services in their own processes',
    session,
    async seedForecast(now) {
      const feed = await FeedPublisher.connect(brokers, instance);
      const hour = Math.floor(now / HOUR) * HOUR;
      try {
        await feed.forecast([forecastGrid('bench-run', hour - HOUR, hour, [{ id: 'c1', at: PLACES.istanbul, base: 12 }], 72, 'bench-model')]);
      } finally {
        await feed.close();
      }
      const token = await session.adminToken();
      const body = { location: PLACES.istanbul, metrics: ['TEMPERATURE'], forecastDays: 1 };
      await eventually(
        async () => ((await session.call('POST', '/v1/forecasts/current', { token, body })).status === 200 ? true : undefined),
        'the forecast to be served',
        60_000,
      );
    },
    cpuMicros: () => cpuMicrosOf(stack.leftovers()),
    async stop() {
      const code = await stack.interrupt(60_000);
      if (code !== 0) stack.kill();
      await deletePrefixedTopics(brokers, instance).catch(() => undefined);
      await dropPrefixedDatabases(testInfra().mongoUrl, instance.replace(/-/g, '_')).catch(() => undefined);
      for (const dir of ['run', 'data', 'logs']) rmSync(join(repoRoot, '.stack', dir, instance), { recursive: true, force: true });
    },
  };
}

/**
 * gateway, identity, geo and query in this process (no ingest, matcher or notifier): one event loop
 * for all, which is what a CPU profile of the whole request path needs (BENCH_CPU_PROFILE).
 */
export async function inProcessStack(): Promise<BenchTarget> {
  const stack = await startWeatherStack();
  const session = new ApiSession(stack.baseUrl, 'bench');
  return {
    label: 'in-process services',
    session,
    async seedForecast(now) {
      await publishForecast(stack, forecastRun('bench-run', now - HOUR, Math.floor(now / HOUR) * HOUR, [{ id: 'c1', at: PLACES.istanbul, base: 12 }]));
      await eventually(async () => (stack.counters.stored >= 1 ? true : undefined), 'the forecast to be stored', 60_000);
    },
    cpuMicros: () => {
      const used = process.cpuUsage();
      return used.user + used.system;
    },
    stop: () => stack.stop(),
  };
}
