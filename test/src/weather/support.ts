import * as gateway from '@stormhook/gateway';
import type { RunningGateway } from '@stormhook/gateway';
import * as geo from '@stormhook/geo';
import * as identity from '@stormhook/identity';
import * as ingest from '@stormhook/ingest';
import { createKafkaClient, createPublisher, type EventType, type Publisher, type TopicName } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import * as query from '@stormhook/query';
import type { RunningGrpcService } from '@stormhook/service-kit';
import { testInfra } from '@stormhook/testing';
import { ApiSession, type CallOptions, type RawAnswer } from '../support/api-session.js';
import { identityTestEnv, testEnv } from '../support/test-env.js';

export { ADMIN, type CallOptions } from '../support/api-session.js';
/** Weather answers are arrays and strings too (protobuf in base64), hence the loose body. */
export type Answer = Omit<RawAnswer, 'body'> & { body: any };

export interface WeatherStack {
  baseUrl: string;
  services: Record<string, RunningGrpcService>;
  gateway: RunningGateway;
  /** Publishes to the stack's (prefixed) topics. */
  publisher: Publisher;
  /** Running totals of the weather records query consumed. */
  counters: query.WeatherCounters;
  /** Query's retention job, to run it at once. */
  maintenance(): query.Maintenance;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  adminToken(): Promise<string>;
  /** An ACTIVE user with `role` and, with `plan`, an account on that plan. */
  user(role: string, plan?: string): Promise<{ userId: string; token: string; accountId?: string }>;
  /** An API_USER whose CUSTOM plan grants the data services inside `boundary` only. */
  regionalUser(boundary: { country: string; region?: string }): Promise<{ token: string; accountId: string }>;
  /** Puts an account on a CUSTOM plan granting the data services inside `boundary` only. */
  restrictPlan(accountId: string, boundary: { country: string; region?: string }): Promise<void>;
  publish(topic: TopicName, eventType: EventType, events: Array<{ key: string; value: Uint8Array }>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * geo, identity, query (and with `withIngest` ingest) and a gateway in this process on port 0,
 * against the real Kafka and database, under a fresh database and topic prefix.
 */
export async function startWeatherStack(
  options: { withIngest?: boolean; queryEnv?: Record<string, string>; gatewayEnv?: Record<string, string> } = {},
): Promise<WeatherStack> {
  const { env, topicPrefix, track, stopAll: stopServices } = testEnv('wx');
  const logger = createLogger({ service: 'weather-it', level: process.env['LOG_LEVEL'] ?? 'silent' });
  const services: Record<string, RunningGrpcService> = {};
  const kafka = createKafkaClient({ brokers: testInfra().kafkaBrokers, credentials: testInfra().kafkaCredentials, clientId: 'weather-it', logger });
  const publisher = createPublisher(kafka, { logger, clientId: 'weather-it', prefix: topicPrefix });
  const stopAll = async () => {
    await stopServices();
    await publisher.disconnect().catch(() => undefined);
  };
  try {
    services['geo'] = track(await geo.start(geo.loadConfig(env), { logger: logger.child({ service: 'geo' }) }));
    const geoAddress = `127.0.0.1:${services['geo'].port}`;
    services['identity'] = track(
      await identity.start(identity.loadConfig({ ...env, ...identityTestEnv(), GEO_GRPC_ADDRESS: geoAddress }), {
        logger: logger.child({ service: 'identity' }),
      }),
    );
    const counters = query.newWeatherCounters();
    let maintenance: query.Maintenance | undefined;
    services['query'] = track(
      await query.start(query.loadConfig({ ...env, GEO_GRPC_ADDRESS: geoAddress, ...options.queryEnv }), {
        logger: logger.child({ service: 'query' }),
        counters,
        onMaintenance: (m) => (maintenance = m),
      }),
    );
    if (options.withIngest) services['ingest'] = track(await ingest.start(ingest.loadConfig(env), { logger: logger.child({ service: 'ingest' }) }));
    const runningGateway = track(
      await gateway.start(
        gateway.loadConfig({
          ...env,
          HTTP_HOST: '127.0.0.1',
          HTTP_PORT: '0',
          IDENTITY_GRPC_ADDRESS: `127.0.0.1:${services['identity'].port}`,
          GEO_GRPC_ADDRESS: geoAddress,
          QUERY_GRPC_ADDRESS: `127.0.0.1:${services['query'].port}`,
          ...options.gatewayEnv,
        }),
        { logger: logger.child({ service: 'gateway' }) },
      ),
    );
    const session = new ApiSession(`http://127.0.0.1:${runningGateway.port}`, 'wx');
    await publisher.connect();

    const restrictPlan: WeatherStack['restrictPlan'] = async (accountId, boundary) => {
      const set = await session.call('POST', '/v1/accounts/update-subscription', {
        token: await session.adminToken(),
        body: {
          accountId,
          subscriptionPlan: 'CUSTOM',
          planDetails: {
            subscriptionExpirationEpoch: Date.now() + 30 * 86_400_000,
            details: [
              {
                limitResetRecurrence: { limitType: 'DAILY', limitResetInterval: 1 },
                geoBoundary: boundary,
                apiServiceLimits: ['precipitations', 'thunderstorms', 'forecasts'].map((serviceName) => ({
                  version: 'v1',
                  serviceName,
                  maxInvocation: 10_000,
                })),
              },
            ],
          },
        },
      });
      if (set.status !== 200) throw new Error(`cannot set subscription: ${set.status} ${JSON.stringify(set.body)}`);
    };
    const regionalUser: WeatherStack['regionalUser'] = async (boundary) => {
      const u = await session.user('API_USER', 'NONE');
      if (!u.accountId) throw new Error('the user was given no account');
      await restrictPlan(u.accountId, boundary);
      return { token: u.token, accountId: u.accountId };
    };
    return {
      baseUrl: session.baseUrl,
      services,
      gateway: runningGateway,
      publisher,
      counters,
      maintenance: () => {
        if (!maintenance) throw new Error('query did not hand over its maintenance job');
        return maintenance;
      },
      call: (method, path, o) => session.call(method, path, o),
      adminToken: () => session.adminToken(),
      user: (role, plan) => session.user(role, plan),
      regionalUser,
      restrictPlan,
      async publish(topic, eventType, events) {
        await publisher.publish(
          topic,
          events.map((e) => ({ key: e.key, value: e.value, eventType })),
        );
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Polls `probe` until it returns a value (not undefined) or the time is up. */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
