export interface TestInfra {
  kafkaBrokers: string[];
  mongoUrl: string;
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
    throw new Error(
      'integration tests need KAFKA_BROKERS and MONGO_URL; run them through `npm test`, which starts the embedded stack',
    );
  }
  return { kafkaBrokers: brokers.split(',').map((b) => b.trim()).filter(Boolean), mongoUrl };
}
