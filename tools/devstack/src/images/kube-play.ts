import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { helmTemplateArgs } from '../deploy/chart-checks.js';
import { runTool, tail } from '../deploy/run-tool.js';
import { ensureGoTool, HELM } from '../deploy/tools.js';
import type { PrivateInfra } from '../infra/private-infra.js';
import { sleep } from '../infra/net.js';
import { repoRoot } from '../paths.js';
import { callingServices, grpcEdges, MESSAGE_KEY_VARIABLE, MESSAGE_PUBLIC_KEY_VARIABLE, signingKeyVariable } from '@stormhook/grpc';
import { signingKeySecretKey } from '../deploy/internal-keys-check.js';
import { allServices, grpcAddressVariable, grpcPort, grpcServices } from '../services.js';
import type { BuiltImage } from './build.js';
import type { Engine } from './engine.js';
import { freePortBlock } from '@stormhook/testing';
import { imagesDir } from './image-paths.js';
import { kubeConfigMap, kubePlayDeployments, podmanSecretData } from './kube-manifests.js';
import { smokeGeoFixture } from './smoke-api.js';
import { runSecrets, startRunInfra, type RunPorts } from './smoke.js';

type Log = (message: string) => void;

const HOST = '127.0.0.1';
const SECRET = 'stormhook-dev';
const PUBLIC_KEYS_CONFIG_MAP = 'stormhook-dev-internal-public-keys';
/** values-dev.yaml's secrets.kafka.secretPrefix. */
const KAFKA_SECRET_PREFIX = 'stormhook-dev-kafka-';
/** values-dev.yaml's secrets.database.secretPrefix: one Secret per service holding its MONGO_URL. */
const MONGO_SECRET_PREFIX = 'stormhook-dev-mongo-';
const START_TIMEOUT_MS = 240_000;

/** The values the dev render gets so that its pods can run on one host against the private infrastructure. */
function renderOverrides(ports: RunPorts, metricsBase: number, image: { tag: string; registry: string | undefined }, geoSource: string): string[] {
  const set = [
    // As a cluster must: geo imports its boundaries from a URL (query serves nobody restricted until it has them).
    `services.geo.env.STORMHOOK_GEO_SOURCE=${geoSource}`,
    `global.image.tag=${image.tag}`,
    `global.image.registry=${image.registry ?? ''}`,
    // Built here, never pulled.
    'global.image.pullPolicy=Never',
    `kafka.brokers={${HOST}:${ports.kafka}}`,
    'kafkaTopics.job.enabled=false',
    // The private broker has the access table's ACLs already (prepareBus, as the super user).
    'kafkaAcls.job.enabled=false',
    `global.env.HTTP_HOST=${HOST}`,
    `global.env.GRPC_HOST=${HOST}`,
    `global.env.METRICS_HOST=${HOST}`,
    `services.gateway.port=${ports.gateway}`,
    'services.gateway.env.METRICS_PORT=' + metricsBase,
  ];
  grpcServices.forEach((service, i) => {
    const port = grpcPort(ports.grpcBase, service);
    set.push(`services.${service}.port=${port}`, `services.${service}.env.METRICS_PORT=${metricsBase + 1 + i}`);
  });
  // No cluster DNS here: each address the render gives (a callee's Service, per the edge table)
  // becomes 127.0.0.1, for the callers the chart gives it to and no others.
  for (const { from, to } of grpcEdges()) {
    set.push(`services.${from}.env.${grpcAddressVariable(to)}=${HOST}:${grpcPort(ports.grpcBase, to)}`);
  }
  return set;
}

/**
 * `npm run images:kube`: `podman kube play` of the chart's development render (`helm template
 * -f values-dev.yaml --kube-version ... --skip-tests`), as a limited test that the Deployments'
 * images, environment, Secret references and security contexts are usable: the pods must start
 * and report healthy (the gateway's /v1/health 200 with every component up, and the image's health
 * check in every container). Against a private Kafka and FerretDB; host networking on free
 * ports bound to 127.0.0.1, no port published. Everything is torn down, also on failure.
 */
export async function kubePlayCheck(engine: Engine, images: readonly BuiltImage[], tag: string, registry: string | undefined, log: Log): Promise<void> {
  if (engine.name !== 'podman') {
    log('kube play check skipped: it needs podman (`podman kube play`), and the engine is Docker');
    return;
  }
  if (images.length !== allServices.length) throw new Error('kube play needs all seven images');
  const started = Date.now();
  const helm = await ensureGoTool(HELM, log);
  const block = await freePortBlock(17, HOST);
  const ports: RunPorts = { kafka: block, kafkaController: block + 1, ferret: block + 2, gateway: block + 3, grpcBase: block + 4 };
  const metricsBase = block + 10;
  const geoFiles = await serveGeoFixture();
  const args = [...helmTemplateArgs(repoRoot, 'values-dev.yaml', renderOverrides(ports, metricsBase, { tag, registry }, geoFiles.url)), '--skip-tests'];
  const rendered = await runTool(helm, args);
  if (rendered.code !== 0) throw new Error(`helm template of the dev render failed:\n${tail(rendered)}`);
  const { yaml, deployments } = kubePlayDeployments(rendered.stdout);
  if (deployments.length !== allServices.length) throw new Error(`the dev render holds ${deployments.length} Deployments, expected ${allServices.length}`);
  const dir = join(imagesDir, 'kube');
  mkdirSync(dir, { recursive: true });
  const kubeFile = join(dir, 'deployments.yaml');
  writeFileSync(kubeFile, yaml);

  let infra: PrivateInfra | undefined;
  // As in the smoke test: Ctrl-C lets the check end (bounded by its timeout) so the tear-down runs.
  const interrupted = () => log('Ctrl-C: the kube play check finishes (at most a few minutes), then removes its pods');
  process.on('SIGINT', interrupted);
  let played = false;
  let secretMade = false;
  const serviceSecrets: string[] = [];
  try {
    infra = await startRunInfra(ports, 'images-kube', log);
    const secrets = runSecrets();
    // The Secret values-dev.yaml names (deploy/dev/dev-secrets.mjs makes it for a cluster).
    const secretFile = join(dir, 'secret.json');
    writeFileSync(
      secretFile,
      podmanSecretData({
        'jwt-signing-key.pem': secrets.jwtKeyPem,
        'credential-encryption-key': secrets.credentialKey,
        // The notifier's message key pair (secrets.messageKey): the private key for the notifier, the public one for identity.
        'notifier-message-key.pem': secrets.internalKeys[MESSAGE_KEY_VARIABLE]!,
        'notifier-message-public-key.pem': secrets.internalKeys[MESSAGE_PUBLIC_KEY_VARIABLE]!,
        // Each calling service's private key under its own Secret key; the chart hands each pod only its own.
        ...Object.fromEntries(callingServices().map((service) => [signingKeySecretKey(service), secrets.internalKeys[signingKeyVariable(service)]!])),
      }),
      { mode: 0o600 },
    );
    await engine.run(['secret', 'rm', SECRET]);
    try {
      await engine.must(['secret', 'create', SECRET, secretFile]);
    } finally {
      rmSync(secretFile, { force: true });
    }
    secretMade = true;
    // Each service's own Kafka login, one Secret per principal as values-dev.yaml names them
    // (secrets.kafka.secretPrefix): the private broker's passwords, so the pods log in as themselves.
    for (const service of allServices) {
      const kafkaSecret = `${KAFKA_SECRET_PREFIX}${service}`;
      const file = join(dir, `${kafkaSecret}.json`);
      writeFileSync(file, podmanSecretData({ password: infra.kafkaCredentials[service] }), { mode: 0o600 });
      await engine.run(['secret', 'rm', kafkaSecret]);
      try {
        await engine.must(['secret', 'create', kafkaSecret, file]);
      } finally {
        rmSync(file, { force: true });
      }
      serviceSecrets.push(kafkaSecret);
    }
    // Each service's own database URL (secrets.database.secretPrefix): its own login on the private FerretDB.
    for (const service of allServices) {
      const mongoSecret = `${MONGO_SECRET_PREFIX}${service}`;
      const file = join(dir, `${mongoSecret}.json`);
      writeFileSync(file, podmanSecretData({ 'mongo-url': infra.mongoUrls[service] }), { mode: 0o600 });
      await engine.run(['secret', 'rm', mongoSecret]);
      try {
        await engine.must(['secret', 'create', mongoSecret, file]);
      } finally {
        rmSync(file, { force: true });
      }
      serviceSecrets.push(mongoSecret);
    }
    played = true;
    // The public keys every gRPC service reads, as the ConfigMap values-dev.yaml names.
    const configMapFile = join(dir, 'internal-public-keys.json');
    writeFileSync(configMapFile, kubeConfigMap(PUBLIC_KEYS_CONFIG_MAP, { 'internal-public-keys.json': secrets.internalKeys.INTERNAL_PUBLIC_KEYS }));
    const play = await engine.run(['kube', 'play', '--configmap', configMapFile, kubeFile], { timeoutMs: 10 * 60_000 });
    if (play.code !== 0) throw new Error(`podman kube play failed:\n${tail(play)}`);
    log(`kube play started ${deployments.length} pods: ${deployments.join(', ')}`);
    const containers = await waitForPods(engine, ports.gateway, deployments);
    log(`ok   /v1/health 200 through the gateway pod, all seven services, Kafka and the database up`);
    for (const name of containers) {
      const health = await engine.run(['exec', name, 'node', '/app/healthcheck.mjs'], { timeoutMs: 30_000 });
      if (health.code !== 0) throw new Error(`${name}: health check failed (exit ${health.code}): ${`${health.stdout}${health.stderr}`.trim()}`);
      const uid = (await engine.must(['exec', name, 'id', '-u'])).trim();
      if (uid !== '1000') throw new Error(`${name} runs as uid ${uid}; the chart's securityContext says 1000`);
    }
    log(`ok   healthcheck.mjs exits 0 in all ${containers.length} service containers, each as uid 1000 (the chart's securityContext)`);
    log(`kube play check passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } catch (error) {
    await dumpPodLogs(engine, deployments, log);
    throw error;
  } finally {
    process.off('SIGINT', interrupted);
    if (played) {
      const down = await engine.run(['kube', 'down', kubeFile], { timeoutMs: 120_000 });
      // kube down stops at the first pod it cannot find (a play that failed halfway): remove the rest by name.
      const left = await podsOf(engine, deployments);
      if (left.length > 0) await engine.run(['pod', 'rm', '--force', ...left], { timeoutMs: 120_000 });
      log(down.code === 0 && left.length === 0 ? 'kube down: pods stopped and removed' : `pods removed (kube down: ${tail(down, 300) || 'ok'})`);
    }
    if (secretMade) await engine.run(['secret', 'rm', SECRET]);
    for (const name of serviceSecrets) await engine.run(['secret', 'rm', name]);
    await infra?.stop();
    geoFiles.server.close();
  }
}

/**
 * The smoke test's one-province boundary file over HTTP on 127.0.0.1 (the pods share the host's
 * network): what STORMHOOK_GEO_SOURCE points a cluster's geo at. Unknown names answer 404, which geo
 * reads as "this level is not provided".
 */
async function serveGeoFixture(): Promise<{ server: Server; url: string }> {
  const dir = join(imagesDir, 'kube-geo');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'tur_adm1_provinces.geojson'), smokeGeoFixture());
  const server = createServer((req, res) => {
    const file = join(dir, basename(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    if (!existsSync(file) || file === dir) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/geo+json' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  server.unref(); // never what keeps the check's process alive, whatever step fails
  return { server, url: `http://${HOST}:${(server.address() as AddressInfo).port}/` };
}

async function podsOf(engine: Engine, deployments: readonly string[]): Promise<string[]> {
  const listed = await engine.run(['pod', 'ps', '--format', '{{.Name}}']);
  return listed.stdout
    .split('\n')
    .map((s) => s.trim())
    .filter((name) => deployments.some((d) => name.startsWith(`${d}-pod`)));
}

/** kube play names a Deployment's pod `<deployment>-pod` and its container `<pod>-<container>`. */
async function serviceContainers(engine: Engine, deployments: readonly string[]): Promise<Map<string, { running: boolean }>> {
  // (podman 4.3 prints "Up 3 seconds" for {{.State}}: ask for the running ones by filter instead.)
  const names = async (filter: string[]) =>
    (await engine.run(['ps', ...filter, '--format', '{{.Names}}'])).stdout
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
  const running = new Set(await names(['--filter', 'status=running']));
  const result = new Map<string, { running: boolean }>();
  for (const name of await names(['--all'])) {
    if (name.endsWith('-infra')) continue;
    if (deployments.some((d) => name.startsWith(`${d}-pod-`))) result.set(name, { running: running.has(name) });
  }
  return result;
}

async function waitForPods(engine: Engine, gatewayPort: number, deployments: readonly string[]): Promise<string[]> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    const containers = await serviceContainers(engine, deployments);
    const stopped = [...containers].filter(([, c]) => !c.running).map(([n]) => n);
    if (stopped.length > 0) throw new Error(`container(s) not running: ${stopped.join(', ')}`);
    try {
      const response = await fetch(`http://${HOST}:${gatewayPort}/v1/health`, { signal: AbortSignal.timeout(3_000) });
      last = `${response.status} ${(await response.text()).slice(0, 400)}`;
      if (response.status === 200 && containers.size === deployments.length) return [...containers.keys()];
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(1_000);
  }
  throw new Error(`the pods were not healthy within ${START_TIMEOUT_MS / 1000} s; last /v1/health: ${last}`);
}

async function dumpPodLogs(engine: Engine, deployments: readonly string[], log: Log): Promise<void> {
  for (const name of (await serviceContainers(engine, deployments)).keys()) {
    const logs = await engine.run(['logs', '--tail', '15', name]);
    log(`--- last log lines of ${name}:\n${`${logs.stdout}${logs.stderr}`.trim()}`);
  }
}
