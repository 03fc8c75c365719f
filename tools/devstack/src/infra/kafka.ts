import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import type { KafkaCredentials, KafkaCredentialSet } from '@stormhook/kafka';
import { paths, repoRoot } from '../paths.js';
import { BROKER_PRINCIPALS, generateCredentialSet, readCurrentSet, runningBrokerCredentialsFile, writeCredentialSet } from './kafka-credentials.js';
import { exec } from './exec.js';
import { newClusterId } from './kafka-cluster-id.js';
import { waitFor } from './net.js';
import { ManagedProcess } from './process.js';
import { stampMatches, writeStamp } from './stamp.js';

const infraDir = join(repoRoot, 'infra', 'kafka');

export interface KafkaOptions {
  host: string;
  port: number;
  controllerPort: number;
  heapMb: number;
  log: (message: string) => void;
  /** Folder under .stack/data holding kafka/ (default: .stack/data itself, the shared broker). */
  dataDir?: string | undefined;
}

/** Resolves the broker jars from Maven Central into .stack/cache (once per pom change). */
export function installKafka(log: (m: string) => void): Promise<string> {
  return resolveJars(join(infraDir, 'pom.xml'), 'kafka', 'broker jars', log);
}

/** Kafka's own perf-test tools, for the bus benchmark only. */
export function installKafkaTools(log: (m: string) => void): Promise<string> {
  return resolveJars(join(infraDir, 'tools', 'pom.xml'), 'kafka-tools', 'command-line tools', log);
}

async function resolveJars(pomFile: string, name: string, what: string, log: (m: string) => void): Promise<string> {
  const pom = readFileSync(pomFile, 'utf8');
  const version = /<kafka\.version>([^<]+)</.exec(pom)?.[1] ?? 'unknown';
  const dir = join(paths.cache, `${name}-${version}`);
  const libs = join(dir, 'libs');
  const stamp = join(dir, '.installed');
  if (stampMatches(stamp, pom)) return libs;
  log(`resolving Apache Kafka ${version} ${what} from Maven Central (first run only)`);
  rmSync(libs, { recursive: true, force: true });
  mkdirSync(libs, { recursive: true });
  await exec(
    'mvn',
    [
      '-B',
      '-q',
      '-f',
      pomFile,
      `-Dmaven.repo.local=${join(paths.cache, 'm2')}`,
      'dependency:copy-dependencies',
      `-DoutputDirectory=${libs}`,
      '-DincludeScope=runtime',
    ],
    { cwd: infraDir },
  );
  writeStamp(stamp, pom);
  return libs;
}

function renderConfig(options: KafkaOptions, logDir: string, adminPassword: string): string {
  const template = readFileSync(join(infraDir, 'server.properties.template'), 'utf8');
  const values: Record<string, string> = {
    host: options.host,
    port: String(options.port),
    controllerPort: String(options.controllerPort),
    logDir,
    adminPassword,
  };
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`server.properties.template: unknown placeholder ${key}`);
    return value;
  });
}

export interface RunningKafka {
  process: ManagedProcess;
  credentials: KafkaCredentialSet;
}

/**
 * Formats the KRaft storage on first start, then runs the broker until stopped. The SCRAM logins of
 * the admin and of every principal of the access table are generated when the storage is formatted
 * and seeded into it; they live beside the data (`credentials.json`, owner-only). A data folder
 * formatted without them, or for another set of principals, is formatted again: a local broker's
 * topics are disposable, and a login that the broker does not know would only fail later.
 */
export async function startKafka(libs: string, options: KafkaOptions): Promise<RunningKafka> {
  const dataDir = join(paths.data, options.dataDir ?? '', 'kafka');
  const logDir = join(dataDir, 'logs');
  mkdirSync(dataDir, { recursive: true });
  const credentialsFile = join(dataDir, 'credentials.json');
  const classpath = `${libs}/*`;
  const jvm = [`-Xms${Math.min(256, options.heapMb)}m`, `-Xmx${options.heapMb}m`, `-Dlog4j.configuration=file:${join(infraDir, 'log4j.properties')}`];
  let credentials = existsSync(join(logDir, 'meta.properties')) ? readCurrentSet(credentialsFile) : undefined;
  const configFile = join(dataDir, 'server.properties');
  if (!credentials) {
    if (existsSync(logDir)) {
      options.log('Kafka storage was formatted without the current principals; formatting it again (local topics are dropped)');
      rmSync(logDir, { recursive: true, force: true });
    }
    credentials = generateCredentialSet();
    writeCredentialSet(credentialsFile, credentials);
    writeFileSync(configFile, renderConfig(options, logDir, credentials.admin), { mode: 0o600 });
    const clusterId = newClusterId();
    options.log(`formatting Kafka storage (cluster ${clusterId}) with SCRAM-SHA-512 logins for ${BROKER_PRINCIPALS.join(', ')}`);
    const scram = BROKER_PRINCIPALS.flatMap((principal) => ['--add-scram', `SCRAM-SHA-512=[name=${principal},password=${credentials![principal]}]`]);
    await exec('java', [...jvm, '-cp', classpath, 'kafka.tools.StorageTool', 'format', `--cluster-id=${clusterId}`, '-c', configFile, ...scram]);
  } else {
    writeFileSync(configFile, renderConfig(options, logDir, credentials.admin), { mode: 0o600 });
  }
  const admin: KafkaCredentials = { username: 'admin', password: credentials.admin };
  const proc = new ManagedProcess({
    name: options.dataDir ? `${options.dataDir}-kafka` : 'kafka',
    role: 'infra',
    command: 'java',
    args: [...jvm, '-cp', classpath, 'kafka.Kafka', configFile],
  });
  const broker = `${options.host}:${options.port}`;
  try {
    await waitFor(
      'Kafka',
      () => kafkaAnswers([broker], admin),
      90_000,
      () => proc.alive,
    );
  } catch (error) {
    await proc.stop(2_000);
    throw new Error(`${(error as Error).message}; see ${proc.logFile}`, { cause: error });
  }
  writeCredentialSet(runningBrokerCredentialsFile(options.port), credentials);
  return { process: proc, credentials };
}

/**
 * True when a broker answers a metadata request (not merely accepts a TCP connection) to `login`.
 * Anonymous (null) probes an unauthenticated cluster.
 */
export async function kafkaAnswers(brokers: string[], login: KafkaCredentials | null): Promise<boolean> {
  const admin = new Kafka({
    clientId: 'stormhook-devstack-probe',
    brokers,
    ...(login ? { sasl: { mechanism: 'scram-sha-512' as const, ...login } } : {}),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1_000,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    await admin.describeCluster();
    return true;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
