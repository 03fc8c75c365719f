import { join } from 'node:path';
import type { DevstackConfig } from '../config.js';
import { ensureInfra } from '../infra/infra.js';
import { sleep } from '../infra/net.js';
import { ManagedProcess, reapOrphans } from '../infra/process.js';
import { repoRoot, useInstance } from '../paths.js';
import { allServices, serviceEnv } from '../services.js';
import { internalTokenKeyEnv } from './internal-key.js';
import { consoleLine } from './console.js';
import { devAdmin } from './dev-admin.js';
import { acquireSupervisorLock } from './lock.js';
import { nodeFlags } from './node-flags.js';
import { createTopics } from './topics.js';

type Log = (message: string) => void;

interface HealthBody {
  status?: string;
  components?: Record<string, { status: string; detail?: string }>;
}

/**
 * `npm start`: Kafka and the database, the topics of the catalogue, then all seven services;
 * waits until the gateway reports every component up, prints the address and stays in the
 * foreground until Ctrl-C or SIGTERM, then stops services before the infrastructure under them.
 */
export async function startStack(config: DevstackConfig, log: Log): Promise<number> {
  useInstance(config.instance);
  const lock = acquireSupervisorLock();
  reapOrphans(log);
  const infra = await ensureInfra(config, log);
  const services: ManagedProcess[] = [];
  let stopping = false;
  const shutdown = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    log(`stopping (${reason})`);
    await Promise.all(services.map((s) => s.stop(15_000)));
    await infra.stop();
    lock.release();
    log('stopped; no process left behind');
  };

  const admin = devAdmin();
  const { INTERNAL_TOKEN_KEY: internalTokenKey } = internalTokenKeyEnv();
  try {
    await createTopics(infra.kafkaBrokers, log, config.topicPrefix);
    for (const name of allServices) {
      services.push(
        new ManagedProcess({
          name,
          command: process.execPath,
          args: [...nodeFlags, join(repoRoot, 'services', name, 'dist', 'main.js')],
          cwd: repoRoot,
          env: {
            ...process.env,
            ...serviceEnv(name, {
              host: config.host,
              gatewayPort: config.gatewayPort,
              grpcBasePort: config.grpcBasePort,
              kafkaBrokers: infra.kafkaBrokers,
              mongoUrl: infra.mongoUrl,
              internalTokenKey,
            }),
            ...(name === 'identity' ? { STORMHOOK_ADMIN_EMAIL: admin.email, STORMHOOK_ADMIN_PASSWORD: admin.password } : {}),
          },
          onLine: (line) => process.stdout.write(`${consoleLine(name, line)}\n`),
        }),
      );
    }
    const gateway = `http://${config.host}:${config.gatewayPort}`;
    await waitUntilHealthy(gateway, services, config.startTimeoutMs);
    if (config.feedSimulator) {
      services.push(
        new ManagedProcess({
          name: 'feed-sim',
          command: process.execPath,
          args: [...nodeFlags, join(repoRoot, 'services', 'ingest', 'dist', 'sim', 'cli.js'), ...config.feedSimulator.args],
          cwd: repoRoot,
          env: { ...process.env, KAFKA_BROKERS: infra.kafkaBrokers.join(',') },
          onLine: (line) => process.stdout.write(`${consoleLine('feed-sim', line)}\n`),
        }),
      );
      log('feed simulator running: synthetic storms, lightning, precipitation and forecasts over Turkey');
    }
    log(`Stormhook is up: ${gateway}  (health ${gateway}/v1/health, API ${gateway}/v1/openapi.json)`);
    log(
      admin.fromEnvironment
        ? `administrator: ${admin.email} (from STORMHOOK_ADMIN_EMAIL)`
        : `administrator: ${admin.email} / ${admin.password} (local development login, kept in .stack/data/dev-admin.json)`,
    );
    log(`Kafka ${infra.kafkaBrokers.join(',')}; logs in .stack/logs/; Ctrl-C stops everything`);
  } catch (error) {
    log(`start failed: ${(error as Error).message}`);
    await shutdown('start failed');
    return 1;
  }

  return new Promise<number>((resolvePromise) => {
    const finish = (reason: string, code: number) => void shutdown(reason).then(() => resolvePromise(code));
    // `on`, not `once`: Ctrl-C reaches us both from the terminal and forwarded by the bootstrap,
    // and a second signal without a handler would kill the supervisor halfway through the stop.
    process.on('SIGINT', () => finish('Ctrl-C', 0));
    process.on('SIGTERM', () => finish('SIGTERM', 0));
    process.on('SIGHUP', () => finish('SIGHUP', 0));
    for (const service of services) {
      void service.waitForExit().then((code) => {
        if (!stopping) {
          log(`${service.spec.name} exited unexpectedly (code ${code}); see ${service.logFile}`);
          finish(`${service.spec.name} died`, 1);
        }
      });
    }
  });
}

async function waitUntilHealthy(gateway: string, services: ManagedProcess[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: HealthBody | string = 'no answer yet';
  while (Date.now() < deadline) {
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
  const down =
    typeof last === 'string'
      ? last
      : Object.entries(last.components ?? {})
          .filter(([, c]) => c.status !== 'up')
          .map(([name, c]) => `${name}${c.detail ? ` (${c.detail})` : ''}`)
          .join(', ');
  throw new Error(`not healthy within ${Math.round(timeoutMs / 1000)} s; down: ${down}`);
}
