import { randomBytes } from 'node:crypto';

export interface TestInfra {
  kafkaBrokers: string[];
  mongoUrl: string;
  /** INTERNAL_TOKEN_KEY of the services the test starts (the runner sets it; see {@link testInternalKey}). */
  internalTokenKey: string;
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
    internalTokenKey: testInternalKey(env),
  };
}

/**
 * The internal-token key of this test process: INTERNAL_TOKEN_KEY as `npm test` sets it, else one
 * generated once and stored there, so every service and test client of the process agrees on it.
 */
export function testInternalKey(env: NodeJS.ProcessEnv = process.env): string {
  env['INTERNAL_TOKEN_KEY'] ||= randomBytes(32).toString('base64url');
  return env['INTERNAL_TOKEN_KEY'];
}
