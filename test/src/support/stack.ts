import * as alarmMatcher from '@stormhook/alarm-matcher';
import * as gateway from '@stormhook/gateway';
import type { RunningGateway } from '@stormhook/gateway';
import * as geo from '@stormhook/geo';
import * as identity from '@stormhook/identity';
import * as ingest from '@stormhook/ingest';
import { createLogger } from '@stormhook/logger';
import * as notifier from '@stormhook/notifier';
import * as query from '@stormhook/query';
import type { RunningGrpcService } from '@stormhook/service-kit';
import { identityTestEnv, testEnv } from './test-env.js';

export interface InProcessStack {
  gateway: RunningGateway;
  services: Record<string, RunningGrpcService>;
  baseUrl: string;
  dbPrefix: string;
  topicPrefix: string;
  stop(): Promise<void>;
}

/**
 * All seven services in this process on port 0, against the real Kafka and database, isolated by a
 * fresh database prefix and topic prefix so they can run beside a stack that is already running.
 * `serviceEnv` adds settings of one service (the notifier's SSRF allow-list for a local receiver).
 */
export async function startInProcessStack(
  serviceEnv: Partial<Record<'notifier' | 'alarm-matcher' | 'ingest' | 'query', Record<string, string>>> = {},
): Promise<InProcessStack> {
  const { env, dbPrefix, topicPrefix, stopAll: cleanUp } = testEnv('it');
  const logger = createLogger({ service: 'test', level: process.env['LOG_LEVEL'] ?? 'silent' });
  // Each service's own loadConfig reads this environment, so its validation is exercised too.
  // Geo and the notifier first: the services after them call them, and learn their port 0 addresses
  // through the same variables the dev stack sets.
  const starters = {
    geo: () => geo.start(geo.loadConfig(env), { logger: logger.child({ service: 'geo' }) }),
    notifier: () => notifier.start(notifier.loadConfig({ ...env, ...serviceEnv.notifier }), { logger: logger.child({ service: 'notifier' }) }),
    // With the test administrator: /v1/health shows its components to ADMIN only.
    identity: () => identity.start(identity.loadConfig({ ...env, ...identityTestEnv() }), { logger: logger.child({ service: 'identity' }) }),
    ingest: () => ingest.start(ingest.loadConfig({ ...env, ...serviceEnv.ingest }), { logger: logger.child({ service: 'ingest' }) }),
    query: () => query.start(query.loadConfig({ ...env, ...serviceEnv.query }), { logger: logger.child({ service: 'query' }) }),
    'alarm-matcher': () =>
      alarmMatcher.start(alarmMatcher.loadConfig({ ...env, ...serviceEnv['alarm-matcher'] }), { logger: logger.child({ service: 'alarm-matcher' }) }),
  };

  const services: Record<string, RunningGrpcService> = {};
  const stopAll = async () => {
    await Promise.all(Object.values(services).map((s) => s.stop()));
  };
  try {
    for (const [name, start] of Object.entries(starters)) {
      services[name] = await start();
      env[`${name.toUpperCase().replace(/-/g, '_')}_GRPC_ADDRESS`] = `127.0.0.1:${services[name]!.port}`;
    }
    const address = (name: string) => `127.0.0.1:${services[name]!.port}`;
    const runningGateway = await gateway.start(
      gateway.loadConfig({
        ...env,
        HTTP_HOST: '127.0.0.1',
        HTTP_PORT: '0',
        IDENTITY_GRPC_ADDRESS: address('identity'),
        GEO_GRPC_ADDRESS: address('geo'),
        INGEST_GRPC_ADDRESS: address('ingest'),
        QUERY_GRPC_ADDRESS: address('query'),
        ALARM_MATCHER_GRPC_ADDRESS: address('alarm-matcher'),
        NOTIFIER_GRPC_ADDRESS: address('notifier'),
      }),
      { logger: logger.child({ service: 'gateway' }) },
    );
    // Like `npm start`, the stack is started when /v1/health says every part is up: query, for one,
    // serves only once it has loaded the provinces from geo, and reports it at its next health check.
    const baseUrl = `http://127.0.0.1:${runningGateway.port}`;
    for (const deadline = Date.now() + 30_000; ;) {
      const health = await fetch(`${baseUrl}/v1/health`).catch(() => undefined);
      if (health?.status === 200 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return {
      gateway: runningGateway,
      services,
      baseUrl,
      dbPrefix,
      topicPrefix,
      async stop() {
        await runningGateway.stop();
        await stopAll();
        await cleanUp();
      },
    };
  } catch (error) {
    await stopAll();
    await cleanUp();
    throw error;
  }
}
