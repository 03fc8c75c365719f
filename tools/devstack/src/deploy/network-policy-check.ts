import { readdirSync, readFileSync, statSync } from 'node:fs';
import { BlockList, isIPv4 } from 'node:net';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { GRPC_SERVICES, grpcAddressVariable, grpcEdges, type GrpcCaller } from '@stormhook/grpc';
import type { StepResult } from './chart-checks.js';

/**
 * What the rendered NetworkPolicies let the services say to each other, compared with the gRPC edge
 * table (packages/grpc/src/edges.ts) and with the code: a service dials another exactly when its
 * sources read that service's `<NAME>_GRPC_ADDRESS` setting.
 */
const COMPONENT = 'app.kubernetes.io/component';
const CALLERS: readonly GrpcCaller[] = ['gateway', ...GRPC_SERVICES];

/** Ranges a webhook may never reach even if the notifier's SSRF filter were bypassed. */
export const REQUIRED_WEBHOOK_EXCEPTIONS: readonly string[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/128',
  '::1/128',
  '::ffff:0:0/96',
  '64:ff9b::/96',
  '2001:db8::/32',
  '2002::/16',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
];

const edgeKey = (from: string, to: string) => `${from} -> ${to}`;

/** The edges the sources use: every non-test .ts file of services/<caller>/src naming a callee's address variable. */
export function codeGrpcEdges(root: string): Set<string> {
  const edges = new Set<string>();
  for (const caller of CALLERS) {
    const text = sourceFiles(join(root, 'services', caller, 'src'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    for (const callee of GRPC_SERVICES) {
      if (callee !== caller && new RegExp(`\\b${grpcAddressVariable(callee)}\\b`).test(text)) edges.add(edgeKey(caller, callee));
    }
  }
  return edges;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test-support' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

export function tableGrpcEdges(): Set<string> {
  return new Set(grpcEdges().map((e) => edgeKey(e.from, e.to)));
}

export interface Peer {
  podSelector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: unknown;
  ipBlock?: { cidr: string; except?: string[] };
}
export interface Rule {
  ports?: Array<{ port?: string | number; protocol?: string }>;
  from?: Peer[];
  to?: Peer[];
}
export interface RenderedPolicy {
  component: string;
  ingress: Rule[];
  egress: Rule[];
}

export function networkPolicies(renderedYaml: string): RenderedPolicy[] {
  const policies: RenderedPolicy[] = [];
  for (const doc of parseAllDocuments(renderedYaml)) {
    const object = doc.toJS() as { kind?: string; spec?: { podSelector?: Peer['podSelector']; ingress?: Rule[]; egress?: Rule[] } } | null;
    if (object?.kind !== 'NetworkPolicy' || !object.spec) continue;
    const component = object.spec.podSelector?.matchLabels?.[COMPONENT];
    if (!component) continue;
    policies.push({ component, ingress: object.spec.ingress ?? [], egress: object.spec.egress ?? [] });
  }
  return policies;
}

/** True when `rule` covers `port` (a rule without ports covers every port). */
function coversPort(rule: Rule, port: number | string, portName: string): boolean {
  return !rule.ports || rule.ports.some((p) => p.port === undefined || p.port === port || p.port === portName);
}

/**
 * Edges among the services that both sides allow: the callee's ingress admits the caller's pods on
 * the gRPC port and the caller's egress reaches the callee's pods on it. A rule without peers (any
 * source or destination) on a gRPC port opens it to everyone and is reported on its own.
 */
export function allowedGrpcEdges(policies: readonly RenderedPolicy[], ports: Readonly<Record<string, number>>): { edges: Set<string>; open: string[] } {
  const byComponent = new Map(policies.map((p) => [p.component, p]));
  const edges = new Set<string>();
  const open: string[] = [];
  const peerComponents = (peers: Peer[] | undefined) =>
    (peers ?? []).map((peer) => peer.podSelector?.matchLabels?.[COMPONENT]).filter((c): c is string => c !== undefined);
  for (const callee of GRPC_SERVICES) {
    const port = ports[callee];
    const policy = byComponent.get(callee);
    if (port === undefined || !policy) continue;
    const ingress = policy.ingress.filter((rule) => coversPort(rule, port, 'grpc'));
    if (ingress.some((rule) => !rule.from || rule.from.length === 0)) open.push(`${callee}'s gRPC port admits any source`);
    for (const caller of CALLERS) {
      if (caller === callee) continue;
      const admitted = ingress.some((rule) => peerComponents(rule.from).includes(caller));
      const callerPolicy = byComponent.get(caller);
      const reaches =
        callerPolicy?.egress.some((rule) => rule.ports?.some((p) => p.port === port) === true && peerComponents(rule.to).includes(callee)) ?? false;
      if (admitted && reaches) edges.add(edgeKey(caller, callee));
    }
  }
  return { edges, open };
}

function difference(a: ReadonlySet<string>, b: ReadonlySet<string>): string[] {
  return [...a].filter((x) => !b.has(x)).sort();
}

/** The table matches the sources, and the rendered policies allow exactly the table's edges. */
export function checkGrpcEdges(renderedYaml: string, ports: Readonly<Record<string, number>>, codeEdges: ReadonlySet<string>, variant: string): StepResult {
  const table = tableGrpcEdges();
  const { edges: allowed, open } = allowedGrpcEdges(networkPolicies(renderedYaml), ports);
  const problems = [
    ...difference(codeEdges, table).map((e) => `code dials ${e}, not in packages/grpc/src/edges.ts`),
    ...difference(table, codeEdges).map((e) => `edges.ts lists ${e}, which no code dials`),
    ...difference(table, allowed).map((e) => `NetworkPolicy blocks ${e}`),
    ...difference(allowed, table).map((e) => `NetworkPolicy allows ${e}, which is not in the table`),
    ...open,
  ];
  return {
    name: `NetworkPolicies (${variant}) allow exactly the gRPC edges the code dials`,
    ok: problems.length === 0,
    detail: problems.length === 0 ? `${table.size} edges: ${[...table].join(', ')}` : problems.join('; '),
  };
}

function networkAddress(cidr: string): { address: string; prefix: number; type: 'ipv4' | 'ipv6' } {
  const [address = '', prefix = ''] = cidr.split('/');
  return { address, prefix: Number(prefix), type: isIPv4(address) ? 'ipv4' : 'ipv6' };
}

/** True when one entry of `exceptions` contains all of `range`. */
export function rangeCovered(range: string, exceptions: readonly string[]): boolean {
  const wanted = networkAddress(range);
  return exceptions.some((entry) => {
    const e = networkAddress(entry);
    if (e.type !== wanted.type || e.prefix > wanted.prefix) return false;
    const list = new BlockList();
    list.addSubnet(e.address, e.prefix, e.type);
    return list.check(wanted.address, wanted.type);
  });
}

export interface IpBlockPeer {
  cidr: string;
  except: string[];
}

/**
 * What is wrong with `blocks` as "the public internet": both families present, no other range, and
 * every required non-public range excluded. `who` names the rule in the messages ("webhook egress").
 */
export function publicInternetProblems(blocks: readonly IpBlockPeer[], who: string): string[] {
  const problems: string[] = [];
  for (const family of ['0.0.0.0/0', '::/0']) {
    if (!blocks.some((b) => b.cidr === family)) problems.push(`no ${who} to ${family}`);
  }
  for (const block of blocks) {
    if (block.cidr !== '0.0.0.0/0' && block.cidr !== '::/0') problems.push(`unexpected ${who} ${block.cidr}`);
  }
  const exceptions = blocks.flatMap((b) => b.except);
  for (const range of REQUIRED_WEBHOOK_EXCEPTIONS) {
    if (!rangeCovered(range, exceptions)) problems.push(`${who} does not exclude ${range}`);
  }
  return problems;
}

/** Components whose egress to public addresses has a check of its own: this one, and checkOpenMeteoPolicy. */
const PUBLIC_EGRESS_COMPONENTS: readonly string[] = ['notifier', 'open-meteo'];

/** The notifier's webhook egress keeps every non-public range closed, in both families; no other service has one. */
export function checkWebhookEgress(renderedYaml: string): StepResult {
  const problems: string[] = [];
  const blocks: IpBlockPeer[] = [];
  for (const policy of networkPolicies(renderedYaml)) {
    for (const rule of policy.egress) {
      for (const peer of rule.to ?? []) {
        if (!peer.ipBlock) continue;
        if (!PUBLIC_EGRESS_COMPONENTS.includes(policy.component)) problems.push(`${policy.component} has an ipBlock egress to ${peer.ipBlock.cidr}`);
        else if (policy.component === 'notifier') blocks.push({ cidr: peer.ipBlock.cidr, except: peer.ipBlock.except ?? [] });
      }
    }
  }
  problems.push(...publicInternetProblems(blocks, 'webhook egress'));
  return {
    name: 'webhook egress excludes private, loopback, link-local, multicast and reserved ranges (IPv4 and IPv6)',
    ok: problems.length === 0,
    detail: problems.length === 0 ? `${REQUIRED_WEBHOOK_EXCEPTIONS.length} ranges excluded` : problems.join('; '),
  };
}

/** Each rendered Service's gRPC port, by component. */
export function grpcPorts(renderedYaml: string): Record<string, number> {
  const ports: Record<string, number> = {};
  for (const doc of parseAllDocuments(renderedYaml)) {
    const object = doc.toJS() as {
      kind?: string;
      metadata?: { labels?: Record<string, string> };
      spec?: { ports?: Array<{ name?: string; port?: number }> };
    } | null;
    const component = object?.metadata?.labels?.[COMPONENT];
    if (object?.kind !== 'Service' || !component) continue;
    const port = object.spec?.ports?.find((p) => p.name === 'grpc')?.port;
    if (port !== undefined) ports[component] = port;
  }
  return ports;
}
