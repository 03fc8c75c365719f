import { readFileSync } from 'node:fs';
import { testInternalKeys, type InternalKeyEnv } from '@stormhook/grpc';
import { uniqueName } from './names.js';

/** A SCRAM-SHA-512 login (the shape of @stormhook/kafka's KafkaCredentials, which this package cannot import). */
export interface TestKafkaLogin {
  username: string;
  password: string;
}

export interface TestInfra {
  kafkaBrokers: string[];
  /**
   * The broker's super user (KAFKA_USERNAME / KAFKA_PASSWORD, set by the runner): for generic test
   * clients and for services a test starts under a topic prefix, which has no ACLs of its own.
   */
  kafkaCredentials: TestKafkaLogin;
  /** The login of one principal of the table (ingest, publisher, ...), for tests that act as it. */
  kafkaLogin(principal: string): TestKafkaLogin;
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
    kafkaCredentials: testKafkaCredentials(env),
    kafkaLogin: (principal) => principalLogin(env, principal),
    internalKeys: testInternalKeys(env),
  };
}

/** The super user's login the runner sets; tests fail with how to run them when it is missing. */
export function testKafkaCredentials(env: NodeJS.ProcessEnv = process.env): TestKafkaLogin {
  const username = env['KAFKA_USERNAME'];
  const password = env['KAFKA_PASSWORD'];
  if (!username || !password) {
    throw new Error('integration tests need KAFKA_USERNAME and KAFKA_PASSWORD (the broker super user); run them through `npm test`, which sets them');
  }
  return { username, password };
}

/**
 * The Kafka variables of a service a test starts by hand: the shared broker and the super user's login
 * (the service runs under a test prefix of its own, which has no ACLs for its principal).
 */
export function testKafkaEnv(infra: TestInfra = testInfra()): { KAFKA_BROKERS: string; KAFKA_USERNAME: string; KAFKA_PASSWORD: string } {
  return { KAFKA_BROKERS: infra.kafkaBrokers.join(','), KAFKA_USERNAME: infra.kafkaCredentials.username, KAFKA_PASSWORD: infra.kafkaCredentials.password };
}

/** kafkajs' `sasl` option for the super user, for tests that build a kafkajs client by hand. */
export function testKafkaSasl(env: NodeJS.ProcessEnv = process.env): { sasl: { mechanism: 'scram-sha-512'; username: string; password: string } } {
  return { sasl: { mechanism: 'scram-sha-512', ...testKafkaCredentials(env) } };
}

function principalLogin(env: NodeJS.ProcessEnv, principal: string): TestKafkaLogin {
  const file = env['STORMHOOK_KAFKA_CREDENTIALS'];
  if (!file) throw new Error('STORMHOOK_KAFKA_CREDENTIALS (the credentials file of the broker) is not set; run the tests through `npm test`');
  const passwords = (JSON.parse(readFileSync(file, 'utf8')) as { passwords?: Record<string, unknown> }).passwords ?? {};
  const password = passwords[principal];
  if (typeof password !== 'string') throw new Error(`${file} has no password for the Kafka principal "${principal}"`);
  return { username: principal, password };
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
      ...testKafkaEnv(infra),
      MONGO_URL: infra.mongoUrl,
      ...infra.internalKeys,
      STORMHOOK_TOPIC_PREFIX: topicPrefix,
      STORMHOOK_DB_PREFIX: dbPrefix,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: '0',
      // A test stack is a development stack: a service may make up a key the test does not supply
      // (@stormhook/service-kit's devFallbacksEnv; tests of the refusal leave it out).
      STORMHOOK_DEV_FALLBACKS: '1',
    },
  };
}
