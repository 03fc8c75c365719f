import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { StepResult } from './chart-checks.js';
import { publicInternetProblems, type IpBlockPeer, type Rule } from './network-policy-check.js';

/**
 * The Open-Meteo CronJob of a render (openMeteo.enabled): it runs the adapter with its settings, and
 * its NetworkPolicy isolates it - DNS, Kafka and HTTPS to public addresses, nothing else.
 */
const COMPONENT = 'app.kubernetes.io/component';
export const OPEN_METEO_COMPONENT = 'open-meteo';
/** The adapter's entry point in the ingest image, and where its source lives. */
export const OPEN_METEO_SCRIPT = 'dist/open-meteo/cli.js';
const OPEN_METEO_SOURCE = join('services', 'ingest', 'src', 'open-meteo', 'cli.ts');
/** Settings the job must pass (services/ingest/src/open-meteo/config.ts); the schedule is the interval, so one fetch per run. */
const REQUIRED_SETTINGS = ['KAFKA_BROKERS', 'OPEN_METEO_BASE_URL', 'OPEN_METEO_GRID', 'OPEN_METEO_MODEL', 'OPEN_METEO_FORECAST_DAYS', 'OPEN_METEO_TIMEOUT_MS'];
const DNS_PORT = 53;
const HTTPS_PORT = 443;

interface Container {
  args?: string[];
  command?: string[];
  image?: string;
  env?: Array<{ name?: string; value?: string }>;
}
interface RenderedObject {
  kind?: string;
  metadata?: { labels?: Record<string, string> };
  spec?: {
    podSelector?: { matchLabels?: Record<string, string> };
    policyTypes?: string[];
    ingress?: Rule[];
    egress?: Rule[];
    jobTemplate?: { spec?: { template?: { spec?: { containers?: Container[] } } } };
  };
}

function objects(renderedYaml: string): RenderedObject[] {
  return parseAllDocuments(renderedYaml)
    .map((doc) => doc.toJS() as RenderedObject | null)
    .filter((o): o is RenderedObject => o !== null);
}

function openMeteoContainer(renderedYaml: string): Container | undefined {
  const cronJob = objects(renderedYaml).find((o) => o.kind === 'CronJob' && o.metadata?.labels?.[COMPONENT] === OPEN_METEO_COMPONENT);
  return cronJob?.spec?.jobTemplate?.spec?.template?.spec?.containers?.[0];
}

function envOf(container: Container): Map<string, string> {
  return new Map((container.env ?? []).filter((e) => e.name && e.value !== undefined).map((e) => [e.name ?? '', e.value ?? '']));
}

/** The CronJob runs the adapter of the ingest image once per run, with every setting it needs. */
export function checkOpenMeteoJob(renderedYaml: string, variant: string, root: string): StepResult {
  const name = `Open-Meteo CronJob (${variant}) runs ${OPEN_METEO_SCRIPT} with its OPEN_METEO_* settings`;
  const container = openMeteoContainer(renderedYaml);
  if (!container) return { name, ok: false, detail: 'no CronJob of component open-meteo in the render' };
  const problems: string[] = [];
  const argv = [...(container.command ?? []), ...(container.args ?? [])];
  if (argv.join(' ') !== OPEN_METEO_SCRIPT) problems.push(`runs "${argv.join(' ')}", not ${OPEN_METEO_SCRIPT}`);
  if (!existsSync(join(root, OPEN_METEO_SOURCE))) problems.push(`${OPEN_METEO_SOURCE} does not exist`);
  if (!/\/ingest[:@]/.test(container.image ?? '')) problems.push(`image ${container.image ?? '(none)'} is not the ingest image`);
  const env = envOf(container);
  for (const setting of REQUIRED_SETTINGS) {
    if (!env.get(setting)) problems.push(`${setting} is not set`);
  }
  if (env.get('OPEN_METEO_INTERVAL_MS') !== '0') problems.push('OPEN_METEO_INTERVAL_MS is not "0": a run would never end');
  return {
    name,
    ok: problems.length === 0,
    detail: problems.length === 0 ? `${env.get('OPEN_METEO_BASE_URL')}, grid ${env.get('OPEN_METEO_GRID')}` : problems.join('; '),
  };
}

/** The TCP ports of the job's KAFKA_BROKERS (host:port, comma-separated). */
function brokerPorts(container: Container | undefined): number[] {
  const brokers = container ? (envOf(container).get('KAFKA_BROKERS') ?? '') : '';
  return [...new Set(brokers.split(',').map((b) => Number(/:(\d+)$/.exec(b.trim())?.[1])))].filter((p) => Number.isInteger(p));
}

const portsOf = (rule: Rule) => (rule.ports ?? []).map((p) => p.port);

/**
 * The job's NetworkPolicy selects its pods, admits nothing, and lets them reach DNS, the brokers'
 * ports and HTTPS on public addresses of both families with every non-public range excluded; any
 * other egress (a service's pods, MongoDB, a port-less rule) fails.
 */
export function checkOpenMeteoPolicy(renderedYaml: string, variant: string): StepResult {
  const name = `Open-Meteo job's NetworkPolicy (${variant}) allows only DNS, Kafka and HTTPS to public addresses`;
  const policy = objects(renderedYaml).find((o) => o.kind === 'NetworkPolicy' && o.spec?.podSelector?.matchLabels?.[COMPONENT] === OPEN_METEO_COMPONENT)?.spec;
  if (!policy) return { name, ok: false, detail: 'no NetworkPolicy selects the open-meteo pods' };
  const kafkaPorts = brokerPorts(openMeteoContainer(renderedYaml));
  const problems: string[] = [];
  for (const type of ['Ingress', 'Egress']) {
    if (!policy.policyTypes?.includes(type)) problems.push(`policyTypes lacks ${type}: that direction is not isolated`);
  }
  if ((policy.ingress ?? []).length > 0) problems.push('admits ingress; nothing calls the job');
  if (kafkaPorts.length === 0) problems.push('the CronJob has no KAFKA_BROKERS with ports');
  let dns = false;
  const kafka = new Set<number>();
  const https: IpBlockPeer[] = [];
  for (const rule of policy.egress ?? []) {
    const ports = portsOf(rule);
    const peers = rule.to ?? [];
    if (ports.length === 0) {
      problems.push(`an egress rule without ports (to ${JSON.stringify(peers)}) opens every port`);
    } else if (ports.every((p) => p === DNS_PORT)) {
      dns = true;
    } else if (ports.some((p) => typeof p === 'number' && kafkaPorts.includes(p))) {
      // networkPolicy.kafka, the services' own Kafka rule (which may list the brokers' other ports).
      if (peers.some((peer) => peer.ipBlock || peer.podSelector?.matchLabels?.[COMPONENT]))
        problems.push(`the Kafka rule reaches ${JSON.stringify(peers)}, not only the brokers`);
      if (ports.some((p) => p === DNS_PORT || p === HTTPS_PORT)) problems.push(`the Kafka rule also opens ports ${ports.join(', ')}`);
      for (const p of ports) if (typeof p === 'number') kafka.add(p);
    } else if (ports.every((p) => p === HTTPS_PORT)) {
      const notBlocks = peers.filter((peer) => !peer.ipBlock);
      if (peers.length === 0 || notBlocks.length > 0) problems.push('the HTTPS rule reaches more than public ipBlocks');
      https.push(...peers.flatMap((peer) => (peer.ipBlock ? [{ cidr: peer.ipBlock.cidr, except: peer.ipBlock.except ?? [] }] : [])));
    } else {
      problems.push(`egress on ports ${ports.join(', ')}, which the job does not need`);
    }
  }
  if (!dns) problems.push('no DNS egress');
  for (const port of kafkaPorts) if (!kafka.has(port)) problems.push(`no egress to Kafka's port ${port}`);
  if (https.length === 0) problems.push(`no egress on port ${HTTPS_PORT}`);
  else problems.push(...publicInternetProblems(https, 'HTTPS egress'));
  return {
    name,
    ok: problems.length === 0,
    detail: problems.length === 0 ? `DNS, Kafka port ${kafkaPorts.join(', ')}, ${HTTPS_PORT} to public addresses` : problems.join('; '),
  };
}
