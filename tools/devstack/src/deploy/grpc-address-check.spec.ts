import assert from 'node:assert/strict';
import { GRPC_EDGES, GRPC_SERVICES, grpcAddressVariable, type GrpcCaller } from '@stormhook/grpc';
import { checkGrpcAddresses } from './grpc-address-check.js';

const PORTS: Record<string, number> = { identity: 50051, geo: 50052, ingest: 50053, query: 50054, 'alarm-matcher': 50055, notifier: 50056 };
const label = (component: string) => `  labels: { app.kubernetes.io/component: ${component} }`;
const address = (callee: string) => `stormhook-${callee}:${PORTS[callee]}`;

function service(component: string): string {
  return `---\nkind: Service\nmetadata:\n  name: stormhook-${component}\n${label(component)}\nspec:\n  ports: [{ name: grpc, port: ${PORTS[component]} }]\n`;
}

function deployment(component: string, env: Record<string, string>): string {
  const entries = Object.entries(env).map(([name, value]) => `                - { name: ${name}, value: "${value}" }`);
  return `---\nkind: Deployment\nmetadata:\n  name: stormhook-${component}\n${label(component)}\nspec:\n  template:\n    spec:\n      containers:\n        - name: ${component}\n          env:\n                - { name: KAFKA_BROKERS, value: "k:9092" }\n${entries.join('\n')}\n`;
}

/** A render where `envOf(caller)` gives each Deployment its gRPC addresses. */
function render(envOf: (caller: GrpcCaller) => Record<string, string>): string {
  const callers = Object.keys(GRPC_EDGES) as GrpcCaller[];
  return [...GRPC_SERVICES.map(service), ...callers.map((c) => deployment(c, envOf(c)))].join('');
}

const fromTable = (caller: GrpcCaller) => Object.fromEntries(GRPC_EDGES[caller].map((callee) => [grpcAddressVariable(callee), address(callee)]));

describe('gRPC address check', () => {
  it('passes a render giving each service exactly its callees’ Service addresses', () => {
    const result = checkGrpcAddresses(render(fromTable), 'test');
    assert.equal(result.ok, true, result.detail);
    assert.match(result.detail, /^12 addresses/);
  });

  it('fails the render that gave every service every address, naming the extra ones', () => {
    const everything = () => Object.fromEntries(GRPC_SERVICES.map((callee) => [grpcAddressVariable(callee), address(callee)]));
    const result = checkGrpcAddresses(render(everything), 'test');
    assert.equal(result.ok, false);
    assert.match(result.detail, /identity gets NOTIFIER_GRPC_ADDRESS, but the edge table gives it no such callee/);
    assert.match(result.detail, /notifier gets GEO_GRPC_ADDRESS/);
    assert.doesNotMatch(result.detail, /gateway gets/);
  });

  it('fails a missing address and one that is not the callee’s Service', () => {
    const missing = checkGrpcAddresses(
      render((c) => (c === 'query' ? {} : fromTable(c))),
      'test',
    );
    assert.match(missing.detail, /query lacks GEO_GRPC_ADDRESS \(it calls geo\)/);
    const wrong = checkGrpcAddresses(
      render((c) => (c === 'identity' ? { GEO_GRPC_ADDRESS: 'stormhook-geo:50099' } : fromTable(c))),
      'test',
    );
    assert.match(wrong.detail, /identity's GEO_GRPC_ADDRESS is "stormhook-geo:50099", the geo Service is stormhook-geo:50052/);
  });

  it('fails a render without one of the callers', () => {
    const yaml = render(fromTable).replace(/---\nkind: Deployment\nmetadata:\n {2}name: stormhook-notifier\n[^]*?(?=---|$)/, '');
    assert.match(checkGrpcAddresses(yaml, 'test').detail, /no Deployment of notifier/);
  });
});
