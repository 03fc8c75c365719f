import { Kafka, logLevel, type LogEntry, type logCreator } from 'kafkajs';
import type { Logger } from '@stormhook/logger';
import type { KafkaConnection, KafkaTls } from './credentials.js';

/** Where and as whom: `credentials` is required so that no call site forgets them (null is an anonymous client). */
export interface KafkaClientOptions extends KafkaConnection {
  clientId: string;
  logger: Logger;
  /** kafkajs' own log level; default WARN (INFO narrates every join and fetch). */
  logLevel?: logLevel;
}

/**
 * kafkajs logs every error response of the broker at ERROR, including the rebalance notices through
 * which a healthy group reorganises itself; at ERROR they would page someone for nothing.
 */
const ROUTINE_BROKER_ERRORS = new Set(['The group is rebalancing, so a rejoin is needed']);

/** Sends kafkajs' log entries to our logger, with routine broker answers demoted to info. */
export function kafkajsLogCreator(logger: Logger): logCreator {
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, ...extra } = log;
      const fields = { kafkajs: namespace, ...extra };
      const routine = typeof extra['error'] === 'string' && ROUTINE_BROKER_ERRORS.has(extra['error']);
      if (level === logLevel.ERROR && !routine) logger.error(fields, message);
      else if (level === logLevel.WARN) logger.warn(fields, message);
      else if (level === logLevel.INFO || routine) logger.info(fields, message);
      else logger.debug(fields, message);
    };
}

/**
 * A kafkajs client whose own logs go through our JSON logger, with timeouts that fail fast enough for
 * readiness probes yet ride out a broker restart (kafkajs retries with backoff on top of these).
 */
export function createKafkaClient(opts: KafkaClientOptions): Kafka {
  return new Kafka({
    clientId: opts.clientId,
    brokers: [...opts.brokers],
    // SCRAM-SHA-512 over the broker's SASL listener; TLS in production (KAFKA_TLS), plain TCP on a laptop.
    ...(opts.credentials ? { sasl: { mechanism: 'scram-sha-512' as const, username: opts.credentials.username, password: opts.credentials.password } } : {}),
    ...tlsOption(opts.tls),
    connectionTimeout: 3_000,
    requestTimeout: 30_000,
    logLevel: opts.logLevel ?? logLevel.WARN,
    logCreator: kafkajsLogCreator(opts.logger.child({ component: 'kafkajs' })),
  });
}

function tlsOption(tls: KafkaTls | undefined): { ssl?: boolean | { ca: string[] } } {
  if (tls === undefined || tls === false) return {};
  return { ssl: tls === true ? true : { ca: tls.ca } };
}
