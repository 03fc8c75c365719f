import assert from 'node:assert/strict';
import { repoRoot } from '../paths.js';
import { checkGrpcEdges, checkWebhookEgress, codeGrpcEdges, rangeCovered, tableGrpcEdges } from './network-policy-check.js';
import { renderGrpcEdgesFile } from './grpc-edges-file.js';

const PORTS = { identity: 50051, geo: 50052, ingest: 50053, query: 50054, 'alarm-matcher': 50055, notifier: 50056 };
const sel = (component: string) => `{ matchLabels: { app.kubernetes.io/component: ${component} } }`;

/** A NetworkPolicy as the chart renders it: gRPC ingress from `callers`, gRPC egress to `callees`. */
function policy(component: string, callers: string[], callees: string[], extraEgress = ''): string {
  const ingress = callers.length
    ? `  - ports: [{ protocol: TCP, port: grpc }]\n    from:\n${callers.map((c) => `      - podSelector: ${sel(c)}`).join('\n')}`
    : '  - ports: [{ protocol: TCP, port: http }]';
  const egress = callees.map((c) => `  - ports: [{ protocol: TCP, port: ${PORTS[c as keyof typeof PORTS]} }]\n    to:\n      - podSelector: ${sel(c)}`);
  return `---\nkind: NetworkPolicy\nspec:\n  podSelector: ${sel(component)}\n  ingress:\n${ingress}\n  egress:\n  - ports: [{ protocol: UDP, port: 53 }]\n${egress.join('\n')}\n${extraEgress}`;
}

const ALL = ['identity', 'geo', 'ingest', 'query', 'alarm-matcher', 'notifier'];
/** The chart before the edge table: only the gateway may call a gRPC service. */
const GATEWAY_ONLY = [policy('gateway', [], ALL), ...ALL.map((s) => policy(s, ['gateway'], []))].join('\n');
const FROM_TABLE = [
  policy('gateway', [], ALL),
  policy('identity', ['gateway', 'alarm-matcher'], ['geo']),
  policy('geo', ['gateway', 'identity', 'query', 'alarm-matcher'], []),
  policy('ingest', ['gateway'], []),
  policy('query', ['gateway', 'alarm-matcher'], ['geo']),
  policy('alarm-matcher', ['gateway'], ['identity', 'geo', 'notifier', 'query']),
  policy('notifier', ['gateway', 'alarm-matcher'], []),
].join('\n');

describe('NetworkPolicy edge check', () => {
  it('finds exactly the edge table in the services’ sources', () => {
    assert.deepEqual([...codeGrpcEdges(repoRoot)].sort(), [...tableGrpcEdges()].sort());
    assert.ok(tableGrpcEdges().has('alarm-matcher -> notifier'));
  });

  it('passes policies that allow exactly the table', () => {
    const result = checkGrpcEdges(FROM_TABLE, PORTS, tableGrpcEdges(), 'test');
    assert.equal(result.ok, true, result.detail);
  });

  it('fails the gateway-only policies, naming each blocked edge', () => {
    const result = checkGrpcEdges(GATEWAY_ONLY, PORTS, tableGrpcEdges(), 'test');
    assert.equal(result.ok, false);
    for (const edge of ['identity -> geo', 'query -> geo', 'alarm-matcher -> geo', 'alarm-matcher -> notifier']) {
      assert.match(result.detail, new RegExp(`NetworkPolicy blocks ${edge}`));
    }
  });

  it('fails an edge allowed on one side only, an extra edge, and a code edge missing from the table', () => {
    const oneSided = FROM_TABLE.replace(policy('query', ['gateway', 'alarm-matcher'], ['geo']), policy('query', ['gateway', 'alarm-matcher'], []));
    assert.match(checkGrpcEdges(oneSided, PORTS, tableGrpcEdges(), 'test').detail, /NetworkPolicy blocks query -> geo/);
    const extra = FROM_TABLE.replace(policy('ingest', ['gateway'], []), policy('ingest', ['gateway'], ['geo'])).replace(
      policy('geo', ['gateway', 'identity', 'query', 'alarm-matcher'], []),
      policy('geo', ['gateway', 'identity', 'query', 'alarm-matcher', 'ingest'], []),
    );
    assert.match(checkGrpcEdges(extra, PORTS, tableGrpcEdges(), 'test').detail, /allows ingest -> geo, which is not in the table/);
    const code = new Set([...tableGrpcEdges(), 'notifier -> identity']);
    assert.match(checkGrpcEdges(FROM_TABLE, PORTS, code, 'test').detail, /code dials notifier -> identity, not in packages\/grpc\/src\/edges.ts/);
  });

  it('fails a gRPC port open to any source', () => {
    const open = FROM_TABLE.replace(
      `  - ports: [{ protocol: TCP, port: grpc }]\n    from:\n      - podSelector: ${sel('gateway')}\n  egress:\n  - ports: [{ protocol: UDP, port: 53 }]\n\n`,
      `  - ports: [{ protocol: TCP, port: grpc }]\n  egress:\n  - ports: [{ protocol: UDP, port: 53 }]\n\n`,
    );
    assert.notEqual(open, FROM_TABLE);
    assert.match(checkGrpcEdges(open, PORTS, tableGrpcEdges(), 'test').detail, /admits any source/);
  });

  it('renders the chart file from the table, callers and callees sorted', () => {
    const file = JSON.parse(renderGrpcEdgesFile()) as { services: Record<string, { calls: string[]; calledBy: string[] }> };
    assert.deepEqual(file.services['geo'], { calls: [], calledBy: ['alarm-matcher', 'gateway', 'identity', 'query'] });
    assert.deepEqual(file.services['alarm-matcher'], { calls: ['geo', 'identity', 'notifier', 'query'], calledBy: ['gateway'] });
  });
});

describe('webhook egress check', () => {
  const webhook = (v4: string[], v6: string[] | undefined) =>
    `  - to:\n      - ipBlock:\n          cidr: 0.0.0.0/0\n          except: [${v4.join(', ')}]\n` +
    (v6 ? `      - ipBlock:\n          cidr: "::/0"\n          except: [${v6.map((r) => `"${r}"`).join(', ')}]\n` : '');
  const OLD_V4 = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.0.0/16', '127.0.0.0/8', '0.0.0.0/8'];
  const V4 = [...OLD_V4, '192.0.0.0/24', '192.0.2.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4'];
  const V6 = ['::/128', '::1/128', '::ffff:0:0/96', '64:ff9b::/96', '2001:db8::/32', '2002::/16', 'fc00::/7', 'fe80::/10', 'ff00::/8'];

  it('passes both families with every non-public range excluded', () => {
    const result = checkWebhookEgress(policy('notifier', ['gateway'], [], webhook(V4, V6)));
    assert.equal(result.ok, true, result.detail);
  });

  it('fails the IPv4-only rule without multicast and reserved ranges', () => {
    const result = checkWebhookEgress(policy('notifier', ['gateway'], [], webhook(OLD_V4, undefined)));
    assert.equal(result.ok, false);
    assert.match(result.detail, /no webhook egress to ::\/0/);
    assert.match(result.detail, /does not exclude 224\.0\.0\.0\/4/);
    assert.match(result.detail, /does not exclude 240\.0\.0\.0\/4/);
    assert.match(result.detail, /does not exclude fc00::\/7/);
  });

  it('fails an ipBlock egress on any other service, but leaves the Open-Meteo job to its own check', () => {
    const notifier = policy('notifier', ['gateway'], [], webhook(V4, V6));
    assert.match(checkWebhookEgress(notifier + policy('query', ['gateway'], [], webhook(V4, V6))).detail, /query has an ipBlock egress/);
    const withJob = checkWebhookEgress(notifier + policy('open-meteo', [], [], webhook(V4, V6)));
    assert.equal(withJob.ok, true, withJob.detail);
  });

  it('counts a range as excluded only when one entry contains all of it', () => {
    assert.equal(rangeCovered('10.1.0.0/16', ['10.0.0.0/8']), true);
    assert.equal(rangeCovered('10.0.0.0/8', ['10.0.0.0/16']), false);
    assert.equal(rangeCovered('fe80::/10', ['fc00::/7']), false);
    assert.equal(rangeCovered('::ffff:0:0/96', ['::ffff:0:0/96']), true);
  });
});
