import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { KafkaCredentialSet } from '@stormhook/kafka';
import type { DevstackConfig } from '../config.js';
import { paths } from '../paths.js';
import { ferretDataDir, installFerretDb, startFerretDb } from './ferretdb.js';
import { adminPassword, FERRET_ADMIN, FERRET_ADMIN_DATABASE, provisionServiceLogins, type FerretLogins } from './ferretdb-logins.js';
import { installKafka, startKafka } from './kafka.js';
import { runningBrokerCredentialsFile } from './kafka-credentials.js';
import { isListening } from './net.js';
import type { ManagedProcess } from './process.js';

/** Stop and start again the broker or the database of a private infrastructure, keeping their data. */
export interface InfraControl {
  stopKafka(): Promise<void>;
  startKafka(): Promise<void>;
  stopDatabase(): Promise<void>;
  startDatabase(): Promise<void>;
}

export interface PrivateInfra {
  kafkaBrokers: string[];
  kafkaCredentials: KafkaCredentialSet;
  kafkaCredentialsFile: string;
  /** The database's administrator URL. */
  mongoUrl: string;
  /** Each service's own login. */
  mongoUrls: FerretLogins['serviceUrls'];
  control: InfraControl;
  stop(): Promise<void>;
}

/**
 * A Kafka broker and a FerretDB of their own, under .stack/data/<dataDir>/ on the configured ports,
 * for tests that break their infrastructure (fault tests): they never reuse or touch the shared
 * dev/test broker and database. The data folder is wiped first so every run starts clean.
 */
export async function startPrivateInfra(config: DevstackConfig, log: (m: string) => void, dataDir: string): Promise<PrivateInfra> {
  for (const port of [config.kafkaPort, config.kafkaControllerPort, config.ferretPort]) {
    if (await isListening(config.host, port)) throw new Error(`port ${port} is taken; the private infrastructure '${dataDir}' needs it free`);
  }
  rmSync(join(paths.data, dataDir), { recursive: true, force: true });
  const [libs, binary] = await Promise.all([installKafka(log), installFerretDb(log)]);
  const kafkaOptions = { host: config.host, port: config.kafkaPort, controllerPort: config.kafkaControllerPort, heapMb: config.kafkaHeapMb, log, dataDir };
  // Logins as on the shared database; a restart keeps the data folder, so the administrator keeps its password.
  const password = adminPassword(ferretDataDir(dataDir));
  const auth = { database: FERRET_ADMIN_DATABASE, username: FERRET_ADMIN, password };
  const ferretOptions = { host: config.host, port: config.ferretPort, synchronous: config.ferretSynchronous, log, dataDir, auth };
  let kafka: ManagedProcess | undefined;
  let credentials: KafkaCredentialSet | undefined;
  let ferret: ManagedProcess | undefined;
  const control: InfraControl = {
    async stopKafka() {
      await kafka?.stop();
      kafka = undefined;
    },
    async startKafka() {
      if (kafka) return;
      // A restart keeps the data folder, so the broker keeps the logins it was formatted with.
      const started = await startKafka(libs, kafkaOptions);
      kafka = started.process;
      credentials = started.credentials;
    },
    async stopDatabase() {
      await ferret?.stop();
      ferret = undefined;
    },
    async startDatabase() {
      ferret ??= await startFerretDb(binary, ferretOptions);
    },
  };
  const stop = async () => {
    await control.stopKafka();
    await control.stopDatabase();
    // Its data folder is wiped by the next run: the logins it published by port are of no use to anyone.
    rmSync(runningBrokerCredentialsFile(config.kafkaPort), { force: true });
  };
  log(`starting a private Kafka on ${config.host}:${config.kafkaPort} and FerretDB on ${config.host}:${config.ferretPort} (.stack/data/${dataDir})`);
  let logins: FerretLogins;
  try {
    await Promise.all([control.startKafka(), control.startDatabase()]);
    logins = await provisionServiceLogins(config.host, config.ferretPort, password);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    kafkaBrokers: [`${config.host}:${config.kafkaPort}`],
    kafkaCredentials: credentials!,
    kafkaCredentialsFile: runningBrokerCredentialsFile(config.kafkaPort),
    mongoUrl: logins.adminUrl,
    mongoUrls: logins.serviceUrls,
    control,
    stop,
  };
}
