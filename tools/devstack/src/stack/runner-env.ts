import { localInternalKeys } from '@stormhook/grpc';
import type { KafkaCredentialSet } from '@stormhook/kafka';
import { DEV_FALLBACKS } from './local-settings.js';

export interface RunnerInfra {
  kafkaBrokers: readonly string[];
  kafkaCredentials: KafkaCredentialSet;
  kafkaCredentialsFile: string;
  mongoUrl: string;
}

/**
 * The environment of a process that runs tests, fault scenarios or benchmarks against the embedded
 * infrastructure: where Kafka and the database are, the broker's super user (generic test clients and
 * services started under a test prefix use it), the file of every principal's login (tests that act
 * as one principal, second stacks), and one set of internal keys that every service and client the
 * run starts shares (the caller's own keys when it set them). The services such a run starts are a
 * development stack's: they may make up their missing keys.
 */
export function runnerEnv(infra: RunnerInfra, logLevel: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...localInternalKeys(),
    KAFKA_BROKERS: infra.kafkaBrokers.join(','),
    KAFKA_USERNAME: 'admin',
    KAFKA_PASSWORD: infra.kafkaCredentials.admin,
    STORMHOOK_KAFKA_CREDENTIALS: infra.kafkaCredentialsFile,
    MONGO_URL: infra.mongoUrl,
    LOG_LEVEL: logLevel,
    ...DEV_FALLBACKS,
  };
}
