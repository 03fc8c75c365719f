import { readFileSync } from 'node:fs';
import type { KafkaConnection, KafkaTls } from './credentials.js';

/** The Kafka part of a config, as `kafkaEnv` (service-kit) validates it. */
export interface KafkaConnectionConfig {
  readonly KAFKA_BROKERS: readonly string[];
  readonly KAFKA_USERNAME: string;
  readonly KAFKA_PASSWORD: string;
  readonly KAFKA_TLS: boolean;
  readonly KAFKA_TLS_CA_FILE?: string | undefined;
}

/**
 * The connection of a process from its validated config. Called once at start: a CA file that
 * cannot be read fails the start with its name, not the first publish.
 */
export function kafkaConnectionOf(config: KafkaConnectionConfig): KafkaConnection {
  let tls: KafkaTls = config.KAFKA_TLS;
  if (config.KAFKA_TLS_CA_FILE) {
    try {
      tls = { ca: [readFileSync(config.KAFKA_TLS_CA_FILE, 'utf8')] };
    } catch (error) {
      throw new Error(`KAFKA_TLS_CA_FILE ${config.KAFKA_TLS_CA_FILE} cannot be read: ${(error as Error).message}`, { cause: error });
    }
  }
  return { brokers: config.KAFKA_BROKERS, credentials: { username: config.KAFKA_USERNAME, password: config.KAFKA_PASSWORD }, tls };
}
