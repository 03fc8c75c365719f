import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { deletePrefixedTopics, dropPrefixedDatabases, serviceTestEnv, testInfra } from '@stormhook/testing';
import { ADMIN } from './api-session.js';

export interface TestEnv {
  /** The variables every service's loadConfig reads: real infrastructure, fresh prefixes, port 0. */
  env: Record<string, string>;
  dbPrefix: string;
  topicPrefix: string;
  /** Stops what `track` was given, last first, then deletes the prefixed topics and databases. */
  track<T extends { stop(): Promise<unknown> }>(service: T): T;
  stopAll(): Promise<void>;
}

/**
 * The isolated corner of the real Kafka and database one in-process test stack runs in: a fresh
 * database and topic prefix (named with `label`), so suites run beside each other and beside a
 * stack that is already running, and leave nothing behind.
 */
export function testEnv(label: string): TestEnv {
  const infra = testInfra();
  const { env, dbPrefix, topicPrefix } = serviceTestEnv(label, infra);
  const started: Array<{ stop(): Promise<unknown> }> = [];
  return {
    env: { ...env, LOG_LEVEL: 'silent' },
    dbPrefix,
    topicPrefix,
    track(service) {
      started.push(service);
      return service;
    },
    async stopAll() {
      for (const s of started.splice(0).reverse()) await s.stop().catch(() => undefined);
      await deletePrefixedTopics(infra.kafkaBrokers, topicPrefix).catch(() => undefined);
      await dropPrefixedDatabases(infra.mongoUrl, dbPrefix).catch(() => undefined);
    },
  };
}

/** Identity's variables for a test stack: the test administrator, a fresh signing key, cheap hashing. */
export function identityTestEnv(): Record<string, string> {
  const { privateKey } = generateKeyPairSync('ed25519');
  return {
    STORMHOOK_ADMIN_EMAIL: ADMIN.username,
    STORMHOOK_ADMIN_PASSWORD: ADMIN.password,
    IDENTITY_JWT_PRIVATE_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    IDENTITY_PASSWORD_HASH_MEMORY_KIB: '1024',
  };
}

/** The notifier's variables for a test stack: a fresh credential key, 127.0.0.1 allowed (a local receiver), quick polling. */
export function notifierTestEnv(): Record<string, string> {
  return {
    CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    NOTIFIER_SSRF_ALLOW_CIDRS: '127.0.0.1/32',
    NOTIFIER_POLL_INTERVAL_MS: '50',
  };
}
