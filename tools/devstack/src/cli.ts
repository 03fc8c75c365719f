#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { loadDevstackConfig } from './config.js';
import { runDeployChecks } from './deploy/index.js';
import { repoRoot } from './paths.js';
import { ensureInfra } from './infra/infra.js';
import { imagesCommand } from './images/command.js';
import { runBenchmarks } from './stack/bench.js';
import { runFaults } from './stack/faults.js';
import { checkLint } from './stack/lint.js';
import { generateProto, checkProto } from './stack/proto.js';
import { startStack } from './stack/start.js';
import { runTests } from './stack/test.js';
import { prepareBus } from './stack/topics.js';
import { publisherEnv } from './stack/start.js';
import { runningBrokerCredentialsFile } from './infra/kafka-credentials.js';
import { runningDatabaseLoginsFile } from './infra/ferretdb-logins.js';
import { readCredentialSet } from '@stormhook/kafka';

const log = (message: string) => process.stderr.write(`[stormhook] ${message}\n`);

// The console may go away before we do (the terminal closed, or a harness that read npm's output
// stopped reading once npm exited). A write to it then fails with EPIPE, and an unhandled stream
// error would end the supervisor in the middle of stopping the stack: ignore it and finish the stop.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

/** Runs Kafka and the database alone in the foreground, for running services from an editor. */
async function infraOnly(): Promise<number> {
  const config = loadDevstackConfig();
  const infra = await ensureInfra(config, log);
  await prepareBus(infra.kafkaBrokers, infra.kafkaCredentials, log);
  log(
    `KAFKA_BROKERS=${infra.kafkaBrokers.join(',')}; Kafka logins (KAFKA_USERNAME = the service's name) in ${infra.kafkaCredentialsFile}; ` +
      `${config.externalMongo ? 'MONGO_URL as given' : `each service's MONGO_URL (serviceUrls) and the administrator's (adminUrl) in ${runningDatabaseLoginsFile(config.ferretPort)}`}; Ctrl-C stops them`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await infra.stop();
  return 0;
}

/** The feed simulator against the local (or configured) Kafka, in the foreground. */
async function feedSimulator(args: string[]): Promise<number> {
  const config = loadDevstackConfig();
  const brokers = config.externalKafka ?? [`${config.host}:${config.kafkaPort}`];
  // The simulator is a data publisher: it logs in as `publisher`, from the logins of the running broker.
  const credentials = readCredentialSet(config.externalKafkaCredentials ?? runningBrokerCredentialsFile(config.kafkaPort));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(repoRoot, 'services', 'ingest', 'dist', 'sim', 'cli.js'), ...args], {
      stdio: 'inherit',
      env: { ...process.env, ...publisherEnv(brokers, credentials) },
    });
    process.on('SIGINT', () => child.kill('SIGINT'));
    child.on('exit', (code) => resolve(code ?? 0));
  });
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'start':
      return startStack(loadDevstackConfig(), log);
    case 'test':
      return runTests(loadDevstackConfig(), log, rest);
    case 'infra':
      return infraOnly();
    case 'feed:sim':
      return feedSimulator(rest);
    case 'bench':
      return runBenchmarks(loadDevstackConfig(), log);
    case 'faults':
      return runFaults(loadDevstackConfig(), log, rest);
    case 'build':
      log('workspace compiled');
      return 0;
    case 'proto:gen':
      return generateProto();
    case 'proto:check':
      return checkProto(log);
    case 'lint':
      return checkLint(log);
    case 'images':
    case 'images:smoke':
    case 'images:kube':
      return imagesCommand(command, rest, log);
    case 'deploy:check':
      return (await runDeployChecks(log)) === 0 ? 0 : 1;
    default:
      log(`unknown command ${command ?? '(none)'}`);
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
