import { join } from 'node:path';
import { GRPC_EDGES, type GrpcCaller, type GrpcServiceName } from '@stormhook/grpc';
import type { GeneratedFile } from './generated-file.js';

/**
 * The chart cannot import TypeScript, so its NetworkPolicies read the gRPC edge table
 * (packages/grpc/src/edges.ts) from this committed JSON file; the deploy checks fail when it is stale.
 */
export const GRPC_EDGES_FILE = join('deploy', 'helm', 'stormhook', 'files', 'grpc-edges.json');

export interface ChartServiceEdges {
  /** Services this one dials: its NetworkPolicy's gRPC egress. */
  calls: string[];
  /** Services that dial this one: its NetworkPolicy's gRPC ingress. */
  calledBy: string[];
}

export function renderGrpcEdgesFile(edges: Readonly<Record<GrpcCaller, readonly GrpcServiceName[]>> = GRPC_EDGES): string {
  const services: Record<string, ChartServiceEdges> = {};
  for (const caller of Object.keys(edges).sort() as GrpcCaller[]) {
    const calledBy = caller === 'gateway' ? [] : (Object.keys(edges) as GrpcCaller[]).filter((from) => edges[from].includes(caller)).sort();
    services[caller] = { calls: [...edges[caller]].sort(), calledBy };
  }
  const document = {
    generatedFrom: 'packages/grpc/src/edges.ts',
    warning: 'Generated: do not edit. Regenerate with `node tools/devstack/dist/deploy/cli.js grpc-edges`.',
    services,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

export const GRPC_EDGES_GENERATED: GeneratedFile = {
  path: GRPC_EDGES_FILE,
  source: 'packages/grpc/src/edges.ts',
  command: 'grpc-edges',
  render: () => renderGrpcEdgesFile(),
};
