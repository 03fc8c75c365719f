import { localInternalKeys } from '@stormhook/grpc';

/**
 * The environment of a process that runs tests, fault scenarios or benchmarks against the embedded
 * infrastructure: where Kafka and the database are, and one set of internal keys that every service
 * and client the run starts shares (the caller's own keys when it set them).
 */
export function runnerEnv(infra: { kafkaBrokers: readonly string[]; mongoUrl: string }, logLevel: string): NodeJS.ProcessEnv {
  return { ...process.env, ...localInternalKeys(), KAFKA_BROKERS: infra.kafkaBrokers.join(','), MONGO_URL: infra.mongoUrl, LOG_LEVEL: logLevel };
}
