/**
 * Which service calls which over gRPC: the one table the deployment derives its network rules from.
 * The chart's NetworkPolicies are rendered from it (deploy/helm/stormhook/files/grpc-edges.json, generated
 * by `node packages/devstack/dist/deploy/cli.js grpc-edges`), and the deploy checks fail when a service's
 * config reads the address of a service not listed here as its callee, or lists one it never reads.
 * Adding a gRPC client therefore means adding its edge here first; otherwise a cluster that enforces
 * NetworkPolicy drops the new calls, and the server refuses them anyway: each gRPC service accepts
 * internal tokens only from the issuers `callersOf` names (service-kit's startGrpcService).
 */
export const GRPC_SERVICES = ['identity', 'geo', 'ingest', 'query', 'alarm-matcher', 'notifier'] as const;
export type GrpcServiceName = (typeof GRPC_SERVICES)[number];
export type GrpcCaller = 'gateway' | GrpcServiceName;

export const GRPC_EDGES: Readonly<Record<GrpcCaller, readonly GrpcServiceName[]>> = {
  // Every /v1 operation, and /v1/health asks every service's health (ingest serves only that).
  gateway: ['identity', 'geo', 'ingest', 'query', 'alarm-matcher', 'notifier'],
  // Point-to-area resolution for subscription geography.
  identity: ['geo'],
  geo: [],
  ingest: [],
  // The provinces that subscription geographies name.
  query: ['geo'],
  // Boundary checks and area polygons; the account's stored webhook.
  'alarm-matcher': ['geo', 'notifier'],
  notifier: [],
};

export interface GrpcEdge {
  from: GrpcCaller;
  to: GrpcServiceName;
}

/** Every edge, in the table's order. */
export function grpcEdges(): GrpcEdge[] {
  return (Object.entries(GRPC_EDGES) as Array<[GrpcCaller, readonly GrpcServiceName[]]>).flatMap(([from, callees]) => callees.map((to) => ({ from, to })));
}

export function callersOf(service: GrpcServiceName): GrpcCaller[] {
  return grpcEdges()
    .filter((edge) => edge.to === service)
    .map((edge) => edge.from);
}

/** The services that call others, in the table's order: each holds a private key of its own to sign its calls. */
export function callingServices(): GrpcCaller[] {
  return (Object.entries(GRPC_EDGES) as Array<[GrpcCaller, readonly GrpcServiceName[]]>).filter(([, callees]) => callees.length > 0).map(([from]) => from);
}

/** Environment variable a caller's config reads a service's gRPC address from (host:port). */
export function grpcAddressVariable(service: GrpcServiceName): string {
  return `${service.toUpperCase().replace(/-/g, '_')}_GRPC_ADDRESS`;
}
