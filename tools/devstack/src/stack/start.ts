import { join } from 'node:path';
import { localInternalKeys, signingKeyVariables } from '@stormhook/grpc';
import type { KafkaCredentialSet } from '@stormhook/kafka';
import type { DevstackConfig } from '../config.js';
import { ensureInfra } from '../infra/infra.js';
import { sleep } from '../infra/net.js';
import { ManagedProcess, reapOrphans, stopAllManaged } from '../infra/process.js';
import { repoRoot, useInstance } from '../paths.js';
import { allServices, serviceEnv } from '../services.js';
import { consoleLine } from './console.js';
import { devAdmin } from './dev-admin.js';
import { localSettings } from './local-settings.js';
import { acquireSupervisorLock } from './lock.js';
import { nodeFlags } from './node-flags.js';
import { prepareBus } from './topics.js';
import { writePublisherFile } from '../infra/kafka-credentials.js';
import { paths } from '../paths.js';

type Log = (message: string) => void;

interface HealthBody {
  status?: string;
  components?: Record<string, { status: string; detail?: string }>;
}

/**
 * `npm start`: Kafka and the database, the topics of the catalogue, then all seven services;
 * waits until the gateway reports every component up, prints the address and stays in the
 * foreground until Ctrl-C, SIGTERM or SIGHUP - also one that arrives during the start - then
 * stops services before the infrastructure under them. If the supervisor itself is killed, its
 * watchdog (infra/watchdog.ts) does that stop.
 */
export async function startStack(config: DevstackConfig, log: Log): Promise<number> {
  useInstance(config.instance);
  const lock = acquireSupervisorLock();
  reapOrphans(log);

  // Handlers first: a signal during the start must stop what has started so far, not kill the
  // supervisor and leave Kafka behind. `on`, not `once`: Ctrl-C reaches us from the terminal and
  // again forwarded by npm and the bootstrap, and a second signal without a handler would kill the
  // supervisor halfway through the stop.
  let requestStop: (reason: { reason: string; code: number }) => void = () => undefined;
  const stopRequested = new Promise<{ reason: string; code: number }>((resolve) => (requestStop = resolve));
  const signals = { SIGINT: 'Ctrl-C', SIGTERM: 'SIGTERM', SIGHUP: 'SIGHUP' } as const;
  for (const [signal, reason] of Object.entries(signals)) process.on(signal, () => requestStop({ reason, code: 0 }));

  let stopping = false;
  const shutdown = async (reason: string) => {
    stopping = true;
    log(`stopping (${reason})`);
    // Services together, then the broker and the database (whatever of them this run started).
    await stopAllManaged(15_000);
    lock.release();
    log('stopped; no process left behind');
  };

  // One set per run (or the caller's): a key pair per calling service, the public keys for everyone.
  const internalKeys = localInternalKeys();
  // The supervisor's own environment may carry every service's signing key (the test runner sets
  // them): serviceEnv gives each service back its own alone.
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const variable of signingKeyVariables()) delete inherited[variable];
  const services: ManagedProcess[] = [];
  const start = async (): Promise<void> => {
    const infra = await ensureInfra(config, log, config.privateInfraDir ? { dataDir: config.privateInfraDir } : {});
    await prepareBus(infra.kafkaBrokers, infra.kafkaCredentials, log, config.topicPrefix);
    const publisherFile = join(paths.run, 'publisher-credentials.json');
    writePublisherFile(publisherFile, infra.kafkaBrokers, infra.kafkaCredentials);
    if (stopping) return;
    const admin = devAdmin();
    for (const name of allServices) {
      services.push(
        new ManagedProcess({
          name,
          command: process.execPath,
          args: [...nodeFlags, join(repoRoot, 'services', name, 'dist', 'main.js')],
          cwd: repoRoot,
          env: {
            ...inherited,
            ...serviceEnv(name, {
              host: config.host,
              gatewayPort: config.gatewayPort,
              grpcBasePort: config.grpcBasePort,
              kafkaBrokers: infra.kafkaBrokers,
              kafkaCredentials: infra.kafkaCredentials,
              mongoUrls: infra.mongoUrls,
              internalKeys,
            }),
            ...localSettings(name, config, admin),
          },
          onLine: (line) => process.stdout.write(`${consoleLine(name, line)}\n`),
        }),
      );
    }
    const gateway = `http://${config.host}:${config.gatewayPort}`;
    await waitUntilHealthy(gateway, services, config.startTimeoutMs, () => stopping);
    if (stopping) return;
    if (config.feedSimulator) {
      services.push(
        new ManagedProcess({
          name: 'feed-sim',
          command: process.execPath,
          args: [...nodeFlags, join(repoRoot, 'services', 'ingest', 'dist', 'sim', 'cli.js'), ...config.feedSimulator.args],
          cwd: repoRoot,
          env: { ...process.env, ...publisherEnv(infra.kafkaBrokers, infra.kafkaCredentials) },
          onLine: (line) => process.stdout.write(`${consoleLine('feed-sim', line)}\n`),
        }),
      );
    }
    if (config.openMeteo) {
      services.push(
        new ManagedProcess({
          name: 'open-meteo',
          command: process.execPath,
          args: [...nodeFlags, join(repoRoot, 'services', 'ingest', 'dist', 'open-meteo', 'cli.js')],
          cwd: repoRoot,
          env: { ...process.env, ...publisherEnv(infra.kafkaBrokers, infra.kafkaCredentials) },
          onLine: (line) => process.stdout.write(`${consoleLine('open-meteo', line)}\n`),
        }),
      );
    }
    log(`Stormhook is up: ${gateway}  (health ${gateway}/v1/health, API ${gateway}/v1/openapi.json)`);
    log(
      config.feedSimulator
        ? 'weather data: SYNTHETIC, from the feed simulator (storms, lightning, rain and forecasts over Turkey, a demo thunderstorm over Ankara, demo cells heading for Polatlı); STORMHOOK_FEED_SIM=0 turns it off'
        : 'weather data: none until a publisher writes the feed topics (the feed simulator is off: STORMHOOK_FEED_SIM=0)',
    );
    if (config.openMeteo) {
      log(
        `forecasts: also from Open-Meteo (${process.env['OPEN_METEO_BASE_URL'] ?? 'https://api.open-meteo.com'}), newer runs win; ` +
          (config.feedSimulator ? "if it cannot be reached, the simulator's forecasts stay in use" : 'if it cannot be reached, there is no forecast'),
      );
    }
    log(
      admin.fromEnvironment
        ? `administrator: ${admin.email} (from STORMHOOK_ADMIN_EMAIL)`
        : `administrator: ${admin.email} / ${admin.password} (local development login, kept in .stack/data/dev-admin.json)`,
    );
    log(
      config.ssrfAllowCidrs.length > 0
        ? `webhooks: callbacks may reach ${config.ssrfAllowCidrs.join(', ')} although private (NOTIFIER_SSRF_ALLOW_CIDRS; none refuses them)`
        : 'webhooks: callbacks to private and loopback addresses are refused (NOTIFIER_SSRF_ALLOW_CIDRS=none)',
    );
    log(`Kafka ${infra.kafkaBrokers.join(',')} (SASL/SCRAM-SHA-512; each service its own principal); logs in .stack/logs/; Ctrl-C stops everything`);
    log(`data publishers: the login that may write feed.* is in ${publisherFile} (README, "Weather feeds")`);
    for (const service of services) {
      void service.waitForExit().then((code) => {
        if (!stopping) {
          log(`${service.spec.name} exited unexpectedly (code ${code}); see ${service.logFile}`);
          requestStop({ reason: `${service.spec.name} died`, code: 1 });
        }
      });
    }
  };

  const started = start().then(
    () => undefined,
    (error: unknown) => {
      if (!stopping) log(`start failed: ${(error as Error).message}`);
      requestStop({ reason: 'start failed', code: 1 });
    },
  );
  const { reason, code } = await stopRequested;
  await shutdown(reason);
  // A start interrupted inside a step (e.g. waiting for Kafka) ends with the processes it waited on.
  await Promise.race([started, sleep(1_000)]);
  return code;
}

/** The feed simulator and the Open-Meteo adapter write feed.* as an outside publisher would: as `publisher`. */
export function publisherEnv(brokers: readonly string[], credentials: KafkaCredentialSet): Record<string, string> {
  return { KAFKA_BROKERS: brokers.join(','), KAFKA_USERNAME: 'publisher', KAFKA_PASSWORD: credentials.publisher };
}

async function waitUntilHealthy(gateway: string, services: ManagedProcess[], timeoutMs: number, cancelled: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: HealthBody | string = 'no answer yet';
  while (Date.now() < deadline && !cancelled()) {
    const dead = services.find((s) => !s.alive);
    if (dead) throw new Error(`${dead.spec.name} exited during start; see ${dead.logFile}`);
    try {
      const response = await fetch(`${gateway}/v1/health`, { signal: AbortSignal.timeout(3_000) });
      last = (await response.json()) as HealthBody;
      if (response.status === 200) return;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(500);
  }
  if (cancelled()) return;
  const down =
    typeof last === 'string'
      ? last
      : Object.entries(last.components ?? {})
          .filter(([, c]) => c.status !== 'up')
          .map(([name, c]) => `${name}${c.detail ? ` (${c.detail})` : ''}`)
          .join(', ') || 'see the service logs in .stack/logs (/v1/health names the components to ADMIN only)';
  throw new Error(`not healthy within ${Math.round(timeoutMs / 1000)} s; down: ${down}`);
}
