import { existsSync, rmSync } from 'node:fs';
import { readCredentialSet, type KafkaCredentialSet } from '@stormhook/kafka';
import type { DevstackConfig } from '../config.js';
import { runningBrokerCredentialsFile } from './kafka-credentials.js';
import { MongoClient } from 'mongodb';
import { ferretDataDir, installFerretDb, mongoAnswers, startFerretDb } from './ferretdb.js';
import {
  adminPassword,
  FERRET_ADMIN,
  FERRET_ADMIN_DATABASE,
  provisionServiceLogins,
  readLogins,
  runningDatabaseLoginsFile,
  sharedLogins,
  writeLogins,
  type FerretLogins,
} from './ferretdb-logins.js';
import { installKafka, kafkaAnswers, startKafka } from './kafka.js';
import { isListening } from './net.js';
import { startPrivateInfra, type InfraControl } from './private-infra.js';
import type { ManagedProcess } from './process.js';

export interface Infra {
  kafkaBrokers: string[];
  /** The logins of the broker's admin and of every principal of the access table. */
  kafkaCredentials: KafkaCredentialSet;
  /** The file holding them (STORMHOOK_KAFKA_CREDENTIALS of test runs and second stacks). */
  kafkaCredentialsFile: string;
  /** The database's administrator URL (tests, tools, a stack's set-up). */
  mongoUrl: string;
  /** Each service's own URL (its own login on the embedded database; the one URL of an external one). */
  mongoUrls: FerretLogins['serviceUrls'];
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
    // A broker this call started and stopped publishes its logins no longer (its data folder keeps them).
    if (started.some((proc) => proc.spec.role === 'infra' && proc.spec.name.endsWith('kafka')))
      rmSync(runningBrokerCredentialsFile(config.kafkaPort), { force: true });
    if (started.some((proc) => proc.spec.role === 'infra' && proc.spec.name.endsWith('ferretdb')))
      rmSync(runningDatabaseLoginsFile(config.ferretPort), { force: true });
  };
  // Both are waited for even when one fails, so nothing is left starting behind our back.
  const [kafka, mongo] = await Promise.allSettled([resolveKafka(config, log, started), resolveMongo(config, log, started)]);
  if (kafka.status === 'rejected' || mongo.status === 'rejected') {
    await stop();
    throw kafka.status === 'rejected' ? kafka.reason : (mongo as PromiseRejectedResult).reason;
  }
  return {
    kafkaBrokers: kafka.value.brokers,
    kafkaCredentials: kafka.value.credentials,
    kafkaCredentialsFile: kafka.value.credentialsFile,
    mongoUrl: mongo.value.adminUrl,
    mongoUrls: mongo.value.serviceUrls,
    stop,
  };
}

interface ResolvedKafka {
  brokers: string[];
  credentials: KafkaCredentialSet;
  credentialsFile: string;
}

async function resolveKafka(config: DevstackConfig, log: (m: string) => void, started: ManagedProcess[]): Promise<ResolvedKafka> {
  if (config.externalKafka) {
    if (!config.externalKafkaCredentials) {
      throw new Error(
        'KAFKA_BROKERS names an external cluster: set STORMHOOK_KAFKA_CREDENTIALS to the JSON file of its logins ({"passwords": {"admin": ..., "ingest": ..., ...}})',
      );
    }
    const credentials = readCredentialSet(config.externalKafkaCredentials);
    if (!(await kafkaAnswers(config.externalKafka, { username: 'admin', password: credentials.admin }))) {
      throw new Error(`KAFKA_BROKERS=${config.externalKafka.join(',')} does not answer the admin login of ${config.externalKafkaCredentials}`);
    }
    log(`using the Kafka cluster at ${config.externalKafka.join(',')}`);
    return { brokers: config.externalKafka, credentials, credentialsFile: config.externalKafkaCredentials };
  }
  const broker = `${config.host}:${config.kafkaPort}`;
  // A broker another command started publishes its logins by port; without them it cannot be used.
  const runningFile = runningBrokerCredentialsFile(config.kafkaPort);
  if (existsSync(runningFile)) {
    const credentials = readCredentialSet(runningFile);
    if (await kafkaAnswers([broker], { username: 'admin', password: credentials.admin })) {
      log(`using the Kafka broker already running at ${broker}`);
      return { brokers: [broker], credentials, credentialsFile: runningFile };
    }
  }
  for (const port of [config.kafkaPort, config.kafkaControllerPort]) {
    if (await isListening(config.host, port)) {
      throw new Error(
        `port ${port} is taken by something that is not a Kafka broker whose logins are in ${runningFile}; set STORMHOOK_KAFKA_PORT / STORMHOOK_KAFKA_CONTROLLER_PORT or KAFKA_BROKERS`,
      );
    }
  }
  const libs = await installKafka(log);
  log(`starting Kafka (KRaft) on ${broker}`);
  const kafka = await startKafka(libs, {
    host: config.host,
    port: config.kafkaPort,
    controllerPort: config.kafkaControllerPort,
    heapMb: config.kafkaHeapMb,
    log,
    // A named second stack that starts its own broker keeps its data apart: two brokers cannot share a log directory.
    ...(config.instance ? { dataDir: config.instance } : {}),
  });
  started.push(kafka.process);
  return { brokers: [broker], credentials: kafka.credentials, credentialsFile: runningFile };
}

async function resolveMongo(config: DevstackConfig, log: (m: string) => void, started: ManagedProcess[]): Promise<FerretLogins> {
  if (config.externalMongo) {
    if (!(await mongoAnswers(config.externalMongo))) throw new Error('MONGO_URL does not answer a ping');
    log('using the MongoDB named by MONGO_URL');
    return sharedLogins(config.externalMongo);
  }
  const url = `mongodb://${config.host}:${config.ferretPort}/`;
  // A database another command started publishes its logins by port.
  const runningFile = runningDatabaseLoginsFile(config.ferretPort);
  if (await mongoAnswers(url)) {
    const published = readLogins(runningFile);
    if (published && (await mongoAnswers(published.adminUrl))) {
      log(`using the database already running at ${url}`);
      return published;
    }
    if (await runsCommandsWithoutLogin(url)) {
      log(`using the database already running at ${url} (started without logins: every service shares one URL)`);
      return sharedLogins(url);
    }
    throw new Error(`the database at ${url} asks for logins that are not in ${runningFile}; stop it, or set STORMHOOK_FERRETDB_PORT or MONGO_URL`);
  }
  if (await isListening(config.host, config.ferretPort)) {
    throw new Error(`port ${config.ferretPort} is taken by something that does not speak the MongoDB protocol; set STORMHOOK_FERRETDB_PORT or MONGO_URL`);
  }
  const binary = await installFerretDb(log);
  const dataDir = config.instance ? { dataDir: config.instance } : {};
  const password = adminPassword(ferretDataDir(config.instance));
  log(`starting FerretDB (SQLite backend, a login per service) on ${url}`);
  started.push(
    await startFerretDb(binary, {
      host: config.host,
      port: config.ferretPort,
      synchronous: config.ferretSynchronous,
      log,
      auth: { database: FERRET_ADMIN_DATABASE, username: FERRET_ADMIN, password },
      ...dataDir,
    }),
  );
  const logins = await provisionServiceLogins(config.host, config.ferretPort, password);
  writeLogins(runningFile, logins);
  return logins;
}

/** True when the server runs commands without a login (a FerretDB started without authentication). */
async function runsCommandsWithoutLogin(url: string): Promise<boolean> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 2_000 });
  try {
    await client.connect();
    await client.db('admin').command({ listDatabases: 1, nameOnly: true });
    return true;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => undefined);
  }
}
