import { testInternalKeys, type InternalKeyEnv } from '@stormhook/grpc';
import { uniqueName } from './names.js';

export interface TestInfra {
  kafkaBrokers: string[];
  mongoUrl: string;
  /**
   * The internal-token settings of the services the test starts: every calling service's signing key
   * (each under its own variable, so a service reads only its own) and the public-key map, by variable
   * name (spread them into a service's env). The runner sets them; else they are made once and stored
   * in the environment, so every service and test client of the process agrees.
   */
  internalKeys: InternalKeyEnv;
}

/**
 * Where integration tests find the real Kafka broker and MongoDB-protocol database. The test
 * runner (`npm test`) sets both variables after starting (or finding) the embedded stack; a
 * developer running mocha by hand sets them the same way.
 */
export function testInfra(env: NodeJS.ProcessEnv = process.env): TestInfra {
  const brokers = env['KAFKA_BROKERS'];
  const mongoUrl = env['MONGO_URL'];
  if (!brokers || !mongoUrl) {
    throw new Error('integration tests need KAFKA_BROKERS and MONGO_URL; run them through `npm test`, which starts the embedded stack');
  }
  return {
    kafkaBrokers: brokers
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
    mongoUrl,
    internalKeys: testInternalKeys(env),
  };
}

/** A service under test's own corner of the shared infrastructure: see {@link serviceTestEnv}. */
export interface ServiceTestEnv {
  topicPrefix: string;
  dbPrefix: string;
  /** Spread into the service's config; add what the test sets beyond it (LOG_LEVEL, addresses, limits). */
  env: Record<string, string>;
}

/**
 * What every service a test starts in-process needs: the shared broker and database, the run's
 * internal keys, a topic and database prefix of its own (named with `label`, so suites run beside
 * each other and beside a running stack and leave nothing behind), and gRPC on loopback on a port
 * the OS picks at bind time.
 */
export function serviceTestEnv(label: string, infra: TestInfra = testInfra()): ServiceTestEnv {
  const topicPrefix = uniqueName(label);
  const dbPrefix = topicPrefix.replace(/-/g, '_');
  return {
    topicPrefix,
    dbPrefix,
    env: {
      KAFKA_BROKERS: infra.kafkaBrokers.join(','),
      MONGO_URL: infra.mongoUrl,
      ...infra.internalKeys,
      STORMHOOK_TOPIC_PREFIX: topicPrefix,
      STORMHOOK_DB_PREFIX: dbPrefix,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: '0',
    },
  };
}
