import { testInternalKeys, type InternalKeyEnv } from '@stormhook/grpc';

export interface TestInfra {
  kafkaBrokers: string[];
  mongoUrl: string;
  /**
   * The internal-token settings of the services the test starts: the shared key, the gateway's
   * signing key and its public key, by variable name (spread them into a service's env). The runner
   * sets them; else they are made once and stored in the environment, so every service and test
   * client of the process agrees.
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
