import type { DevstackConfig } from '../config.js';
import { installFerretDb, mongoAnswers, startFerretDb } from './ferretdb.js';
import { installKafka, kafkaAnswers, startKafka } from './kafka.js';
import { isListening } from './net.js';
import { startPrivateInfra, type InfraControl } from './private-infra.js';
import type { ManagedProcess } from './process.js';

export interface Infra {
  kafkaBrokers: string[];
  mongoUrl: string;
  /** Stops what this call started; what it found already running is left alone. */
  stop(): Promise<void>;
  /** Present for a private infrastructure only (options.dataDir): stop/start its broker and database. */
  control?: InfraControl;
}

export interface InfraOptions {
  /**
   * A private broker and database under .stack/data/<dataDir>/ on the configured ports, always
   * started here and never shared (tests that stop or kill them use this).
   */
  dataDir?: string;
}

/**
 * Kafka and the database for a stack or a test run: an external one when KAFKA_BROKERS or
 * MONGO_URL names it, one already running on the embedded ports (a stack started earlier), or
 * the embedded Kafka and FerretDB, fetched or built on first use and started here.
 */
export async function ensureInfra(config: DevstackConfig, log: (m: string) => void, options: InfraOptions = {}): Promise<Infra> {
  if (options.dataDir) return startPrivateInfra(config, log, options.dataDir);
  const started: ManagedProcess[] = [];
  const stop = async () => {
    for (const proc of started.reverse()) await proc.stop();
  };
  // Both are waited for even when one fails, so nothing is left starting behind our back.
  const [kafka, mongo] = await Promise.allSettled([resolveKafka(config, log, started), resolveMongo(config, log, started)]);
  if (kafka.status === 'rejected' || mongo.status === 'rejected') {
    await stop();
    throw kafka.status === 'rejected' ? kafka.reason : (mongo as PromiseRejectedResult).reason;
  }
  return { kafkaBrokers: kafka.value, mongoUrl: mongo.value, stop };
}

async function resolveKafka(config: DevstackConfig, log: (m: string) => void, started: ManagedProcess[]): Promise<string[]> {
  if (config.externalKafka) {
    if (!(await kafkaAnswers(config.externalKafka))) {
      throw new Error(`KAFKA_BROKERS=${config.externalKafka.join(',')} does not answer`);
    }
    log(`using the Kafka cluster at ${config.externalKafka.join(',')}`);
    return config.externalKafka;
  }
  const broker = `${config.host}:${config.kafkaPort}`;
  if (await kafkaAnswers([broker])) {
    log(`using the Kafka broker already running at ${broker}`);
    return [broker];
  }
  for (const port of [config.kafkaPort, config.kafkaControllerPort]) {
    if (await isListening(config.host, port)) {
      throw new Error(
        `port ${port} is taken by something that is not a Kafka broker; set STORMHOOK_KAFKA_PORT / STORMHOOK_KAFKA_CONTROLLER_PORT or KAFKA_BROKERS`,
      );
    }
  }
  const libs = await installKafka(log);
  log(`starting Kafka (KRaft) on ${broker}`);
  started.push(
    await startKafka(libs, {
      host: config.host,
      port: config.kafkaPort,
      controllerPort: config.kafkaControllerPort,
      heapMb: config.kafkaHeapMb,
      log,
      // A named second stack that starts its own broker keeps its data apart: two brokers cannot share a log directory.
      ...(config.instance ? { dataDir: config.instance } : {}),
    }),
  );
  return [broker];
}

async function resolveMongo(config: DevstackConfig, log: (m: string) => void, started: ManagedProcess[]): Promise<string> {
  if (config.externalMongo) {
    if (!(await mongoAnswers(config.externalMongo))) throw new Error('MONGO_URL does not answer a ping');
    log('using the MongoDB named by MONGO_URL');
    return config.externalMongo;
  }
  const url = `mongodb://${config.host}:${config.ferretPort}/`;
  if (await mongoAnswers(url)) {
    log(`using the database already running at ${url}`);
    return url;
  }
  if (await isListening(config.host, config.ferretPort)) {
    throw new Error(`port ${config.ferretPort} is taken by something that does not speak the MongoDB protocol; set STORMHOOK_FERRETDB_PORT or MONGO_URL`);
  }
  const binary = await installFerretDb(log);
  log(`starting FerretDB (SQLite backend) on ${url}`);
  started.push(
    await startFerretDb(binary, {
      host: config.host,
      port: config.ferretPort,
      synchronous: config.ferretSynchronous,
      log,
      ...(config.instance ? { dataDir: config.instance } : {}),
    }),
  );
  return url;
}
