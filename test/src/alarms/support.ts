import * as alarmMatcher from '@stormhook/alarm-matcher';
import type { RunningAlarmMatcher } from '@stormhook/alarm-matcher';
import * as gateway from '@stormhook/gateway';
import * as geo from '@stormhook/geo';
import * as identity from '@stormhook/identity';
import { createLogger } from '@stormhook/logger';
import * as notifier from '@stormhook/notifier';
import * as query from '@stormhook/query';
import type { RunningGrpcService } from '@stormhook/service-kit';
import { ApiSession, type Answer } from '../support/api-session.js';
import { acknowledgeAlarm, Receiver as SharedReceiver } from '../support/receiver.js';
import { identityTestEnv, notifierTestEnv, testEnv } from '../support/test-env.js';

export { ADMIN, type Answer } from '../support/api-session.js';

/** Places of the shared boundary data (test/../shared/data/geo). */
export const ANKARA = 6;
export const CANKAYA = 1231;
export const KECIOREN = 1745;
export const ISTANBUL = 34;
export const KADIKOY = 1421;
/** A Who's On First neighbourhood of Kadıköy. */
export const FIKIRTEPE = 1444830797;
/** Kızılay, central Çankaya. */
export const KIZILAY = { lng: 32.854, lat: 39.92 };

export interface TestUser {
  userId: string;
  username: string;
  token: string;
  accountId: string;
}

export interface AlarmStack {
  baseUrl: string;
  topicPrefix: string;
  matcher: RunningAlarmMatcher;
  call(method: string, path: string, options?: { body?: unknown; token?: string }): Promise<Answer>;
  adminToken(): Promise<string>;
  /** An ACTIVE user with `role` and an account on `plan` (PREMIUM_MONTHLY grants every alarm kind); the token names the account. */
  user(role: string, plan?: string): Promise<TestUser>;
  stop(): Promise<void>;
}

/**
 * geo (importing the shared boundaries), the notifier, identity, the alarm-matcher and a gateway in
 * this process on port 0, against the real Kafka and database, under a fresh database and topic
 * prefix. Geo and the notifier start first: the others learn their port 0 addresses through the
 * variables the dev stack sets. The notifier may call 127.0.0.1 (the SSRF allow-list), so a local
 * receiver can take the callbacks. `matcherEnv` adds alarm-matcher settings (e.g. a short lightning
 * quiet period, so an all-clear arrives within a test).
 */
/** What a suite adds to the alarm stack. */
export interface AlarmStackOptions {
  /** Starts query too, so the matcher reads its weather history (the back-test). */
  query?: boolean;
  /** Runs with the stack's settings before query starts (a benchmark fills query's history). */
  beforeQuery?: (env: Readonly<Record<string, string>>) => Promise<void>;
  /** Settings of the gateway on top of the suite's. */
  gatewayEnv?: Record<string, string>;
}

export async function startAlarmStack(matcherEnv: Record<string, string> = {}, options: AlarmStackOptions = {}): Promise<AlarmStack> {
  const { env, topicPrefix, track, stopAll } = testEnv('alm');
  const logger = createLogger({ service: 'alarms-it', level: process.env['LOG_LEVEL'] ?? 'silent' });
  const address = (service: RunningGrpcService) => `127.0.0.1:${service.port}`;
  try {
    const geoService = track(await geo.start(geo.loadConfig(env), { logger: logger.child({ service: 'geo' }) }));
    if ((await geoService.platform.mongo.db.collection('areas').countDocuments()) === 0) {
      throw new Error('the geo service imported no boundaries: ../shared/data/geo is missing beside the checkout');
    }
    env['GEO_GRPC_ADDRESS'] = address(geoService);
    const notifierService = track(
      await notifier.start(notifier.loadConfig({ ...env, ...notifierTestEnv() }), { logger: logger.child({ service: 'notifier' }) }),
    );
    env['NOTIFIER_GRPC_ADDRESS'] = address(notifierService);
    const identityService = track(
      await identity.start(identity.loadConfig({ ...env, ...identityTestEnv() }), { logger: logger.child({ service: 'identity' }) }),
    );
    env['IDENTITY_GRPC_ADDRESS'] = address(identityService);
    if (options.query) {
      await options.beforeQuery?.(env);
      const queryService = track(await query.start(query.loadConfig(env), { logger: logger.child({ service: 'query' }) }));
      env['QUERY_GRPC_ADDRESS'] = address(queryService);
    }
    const matcher = track(await alarmMatcher.start(alarmMatcher.loadConfig({ ...env, ...matcherEnv }), { logger: logger.child({ service: 'alarm-matcher' }) }));
    env['ALARM_MATCHER_GRPC_ADDRESS'] = address(matcher);
    const running = track(
      await gateway.start(gateway.loadConfig({ ...env, HTTP_HOST: '127.0.0.1', HTTP_PORT: '0', ...options.gatewayEnv }), {
        logger: logger.child({ service: 'gateway' }),
      }),
    );
    const session = new ApiSession(`http://127.0.0.1:${running.port}`, 'alm');
    const user: AlarmStack['user'] = async (role, plan = 'PREMIUM_MONTHLY') => {
      const created = await session.user(role, plan);
      return { ...created, accountId: created.accountId! };
    };
    return {
      baseUrl: session.baseUrl,
      topicPrefix,
      matcher,
      call: (method, path, options) => session.call(method, path, options),
      adminToken: () => session.adminToken(),
      user,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

export { eventually, type ReceivedCallback } from '../support/receiver.js';

/** The suite's receiver acknowledges every callback as the incumbent's customers do (AlarmReceived). */
export class Receiver extends SharedReceiver {
  constructor() {
    super(acknowledgeAlarm);
  }
}

/** Asserts the ErrorResponse shape of interface.md 2.1 with `status`, and returns its message. */
export function errorMessage(answer: Answer, status: number): string {
  const b = answer.body;
  if (
    answer.status !== status ||
    b['status'] !== status ||
    typeof b['message'] !== 'string' ||
    typeof b['error'] !== 'string' ||
    typeof b['path'] !== 'string'
  ) {
    throw new Error(`expected an ErrorResponse with status ${status}, got ${answer.status}: ${JSON.stringify(b)}`);
  }
  return b['message'] as string;
}

/** A complete public webhook (interface.md 2.2) aimed at `url`. */
export function fullWebhook(url: string): Record<string, unknown> {
  return {
    url,
    httpMethod: 'POST',
    contentType: 'application/json',
    authentication: { type: 'BASIC', username: 'ops', password: 'hook-secret-1' },
    requestHeaders: { 'X-Tenant': 'acme' },
    deliveryPolicy: { timeout: 4000, maxRetries: 2, retryDelay: 5 },
  };
}
