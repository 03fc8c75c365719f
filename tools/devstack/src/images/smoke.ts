import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { localInternalKeys, type InternalKeyEnv } from '@stormhook/grpc';
import { loadDevstackConfig, type DevstackConfig } from '../config.js';
import { startPrivateInfra, type PrivateInfra } from '../infra/private-infra.js';
import { sleep } from '../infra/net.js';
import { allServices, serviceEnv, type ServiceName } from '../services.js';
import { prepareBus } from '../stack/topics.js';
import type { BuiltImage } from './build.js';
import { containerLogs, isRunning, removeRun, runContainer } from './containers.js';
import type { Engine } from './engine.js';
import { freePortBlock } from '@stormhook/testing';
import { imagesDir } from './image-paths.js';
import { SmokeApi, smokeGeoFixture, startReceiver } from './smoke-api.js';

type Log = (message: string) => void;

const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 240_000;

/** The address plan of one run: a private broker and database, and the seven services, on free ports. */
export interface RunPorts {
  kafka: number;
  kafkaController: number;
  ferret: number;
  gateway: number;
  grpcBase: number;
}

export async function allocatePorts(): Promise<RunPorts> {
  // One block, so no two of them can be the same port.
  const base = await freePortBlock(10, HOST);
  return { kafka: base, kafkaController: base + 1, ferret: base + 2, gateway: base + 3, grpcBase: base + 4 };
}

/** A private Kafka and FerretDB (never the shared 9092/27017) on the run's ports, with the catalogue's topics. */
export async function startRunInfra(ports: RunPorts, dataDir: string, log: Log): Promise<PrivateInfra> {
  const base = loadDevstackConfig();
  const config: DevstackConfig = {
    ...base,
    host: HOST,
    kafkaPort: ports.kafka,
    kafkaControllerPort: ports.kafkaController,
    ferretPort: ports.ferret,
    kafkaHeapMb: Math.min(base.kafkaHeapMb, 512),
    externalKafka: undefined,
    externalMongo: undefined,
  };
  const infra = await startPrivateInfra(config, log, dataDir);
  try {
    await prepareBus(infra.kafkaBrokers, infra.kafkaCredentials, log);
  } catch (error) {
    await infra.stop();
    throw error;
  }
  return infra;
}

/** Secrets of one run, made up for it: the first administrator, the token signing key, the credential key. */
export function runSecrets(): { adminEmail: string; adminPassword: string; jwtKeyPem: string; credentialKey: string; internalKeys: InternalKeyEnv } {
  return {
    // The services refuse gRPC calls without a token signed with these keys (one set per run, like npm start).
    internalKeys: localInternalKeys({}),
    adminEmail: 'admin@stormhook.test',
    adminPassword: randomBytes(12).toString('base64url'),
    jwtKeyPem: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    credentialKey: randomBytes(32).toString('base64'),
  };
}

/**
 * `npm run images:smoke`: every service image, read-only and non-root as the chart runs it, against
 * a private Kafka and FerretDB on free ports, host networking bound to 127.0.0.1. Through the
 * gateway container: /v1/health 200 with all seven up, one metered data call, one alarm
 * registration; then the image's health check script in every container, the user id and the
 * read-only root. Everything it started is stopped and removed, also when a step fails.
 */
export async function smokeTest(engine: Engine, images: readonly BuiltImage[], log: Log): Promise<void> {
  const started = Date.now();
  const runLabel = `smoke-${Date.now().toString(36)}`;
  const ports = await allocatePorts();
  const fixtureDir = join(imagesDir, 'smoke-geo');
  mkdirSync(fixtureDir, { recursive: true });
  writeFileSync(join(fixtureDir, 'tur_adm1_provinces.geojson'), smokeGeoFixture());
  const receiver = await startReceiver();
  let infra: PrivateInfra | undefined;
  // Ctrl-C must not leave containers and a broker behind: the run goes on to its end (bounded by
  // the start timeout), and the finally block removes everything it started.
  const interrupted = () => log('Ctrl-C: the smoke test finishes (at most a few minutes), then removes everything it started');
  process.on('SIGINT', interrupted);
  try {
    infra = await startRunInfra(ports, 'images-smoke', log);
    const secrets = runSecrets();
    const names = new Map<ServiceName, string>();
    for (const service of allServices) {
      const image = images.find((i) => i.service === service);
      if (!image) throw new Error(`no image of ${service} was built`);
      const name = `stormhook-${runLabel}-${service}`;
      names.set(service, name);
      const env: Record<string, string> = {
        ...serviceEnv(service, {
          host: HOST,
          gatewayPort: ports.gateway,
          grpcBasePort: ports.grpcBase,
          kafkaBrokers: infra.kafkaBrokers,
          kafkaCredentials: infra.kafkaCredentials,
          mongoUrls: infra.mongoUrls,
          internalKeys: secrets.internalKeys,
        }),
        LOG_LEVEL: 'info',
        // Real keys and no STORMHOOK_DEV_FALLBACKS, as the chart runs the images: a missing key must stop
        // the container here rather than in a cluster. The env file carries the PEM's line breaks as \n.
        ...(service === 'identity'
          ? { STORMHOOK_ADMIN_EMAIL: secrets.adminEmail, STORMHOOK_ADMIN_PASSWORD: secrets.adminPassword, IDENTITY_JWT_PRIVATE_KEY: secrets.jwtKeyPem }
          : {}),
        // The receiver listens on 127.0.0.1, which the SSRF filter refuses unless exempted.
        ...(service === 'notifier' ? { CREDENTIAL_ENCRYPTION_KEY: secrets.credentialKey, NOTIFIER_SSRF_ALLOW_CIDRS: '127.0.0.1/32' } : {}),
        ...(service === 'geo' ? { STORMHOOK_GEO_SOURCE: '/geo' } : {}),
      };
      await runContainer(engine, {
        name,
        image: image.image,
        env,
        runLabel,
        ...(service === 'geo' ? { readOnlyMounts: { [fixtureDir]: '/geo' } } : {}),
      });
      log(`started ${name} (${image.image})`);
    }
    const gateway = `http://${HOST}:${ports.gateway}`;
    const healthMs = await waitForHealth(engine, gateway, names, log);
    log(`ok   /v1/health 200 with all seven services, Kafka and the database up (${(healthMs / 1000).toFixed(1)} s after the last start)`);
    const api = new SmokeApi(gateway);
    const admin = await api.login(secrets.adminEmail, secrets.adminPassword);
    const user = await api.apiUser(admin);
    log(`ok   metered data call: ${await api.meteredCall(user)}`);
    log(`ok   alarm registration: ${await api.registerAlarm(user, receiver.url)}`);
    log(`ok   API reference page: ${await api.docsPage()}`);
    log(`ok   customer console: ${await api.consolePage()}`);
    for (const [service, name] of names) {
      const health = await engine.run(['exec', name, 'node', '/app/healthcheck.mjs'], { timeoutMs: 30_000 });
      if (health.code !== 0) throw new Error(`${service}: the image's health check failed (exit ${health.code}): ${`${health.stdout}${health.stderr}`.trim()}`);
      const uid = (await engine.must(['exec', name, 'id', '-u'])).trim();
      if (uid !== '1000') throw new Error(`${service} runs as uid ${uid}, not 1000`);
      const write = await engine.run(['exec', name, 'sh', '-c', 'touch /app/written-at-run-time']);
      if (write.code === 0) throw new Error(`${service}: /app is writable although the root filesystem must be read-only`);
    }
    log('ok   healthcheck.mjs exits 0 in all seven containers; each runs as uid 1000 on a read-only root');
    log(`smoke test passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } catch (error) {
    await dumpFailedLogs(engine, runLabel, log);
    throw error;
  } finally {
    process.off('SIGINT', interrupted);
    const removed = await removeRun(engine, runLabel);
    log(`stopped and removed ${removed.length} container(s)`);
    await infra?.stop();
    await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
    rmSync(fixtureDir, { recursive: true, force: true });
  }
}

/** Polls the gateway's /v1/health until 200; fails at once, with the logs, when a container exits. */
async function waitForHealth(engine: Engine, gateway: string, names: Map<ServiceName, string>, log: Log): Promise<number> {
  const started = Date.now();
  let last = 'no answer yet';
  while (Date.now() - started < START_TIMEOUT_MS) {
    for (const [service, name] of names) {
      if (!(await isRunning(engine, name))) throw new Error(`${service} exited during start:\n${await containerLogs(engine, name)}`);
    }
    try {
      const response = await fetch(`${gateway}/v1/health`, { signal: AbortSignal.timeout(3_000) });
      last = `${response.status} ${(await response.text()).slice(0, 400)}`;
      if (response.status === 200) return Date.now() - started;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(1_000);
  }
  log(`last /v1/health answer: ${last}`);
  throw new Error(`the services were not healthy within ${START_TIMEOUT_MS / 1000} s`);
}

async function dumpFailedLogs(engine: Engine, runLabel: string, log: Log): Promise<void> {
  const listed = await engine.run(['ps', '--all', '--format', '{{.Names}}', '--filter', `label=stormhook.run=${runLabel}`]);
  for (const name of listed.stdout
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)) {
    log(`--- last log lines of ${name}:\n${await containerLogs(engine, name, 15)}`);
  }
}
