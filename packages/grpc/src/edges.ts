import { identityV1, notificationV1, queryV1, serviceNameOf } from '@stormhook/proto';

/**
 * Which service calls which over gRPC: the one table the deployment derives its network rules from.
 * The chart's NetworkPolicies are rendered from it (deploy/helm/stormhook/files/grpc-edges.json, generated
 * by `node tools/devstack/dist/deploy/cli.js grpc-edges`), and the deploy checks fail when a service's
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
  // Boundary checks and area polygons; the account's stored webhook; the owner's entitlement; the
  // weather history a back-test runs over.
  'alarm-matcher': ['identity', 'geo', 'notifier', 'query'],
  notifier: [],
};

/**
 * Per-rpc narrowing of the edges above, for services whose callers need only part of them: a caller
 * may call an rpc only when the rpc lists it (PERMISSION_DENIED otherwise, naming both), so a pod
 * holding the alarm-matcher's key cannot read signing secrets or redeliver. Keyed by the generated
 * definition's method names, so a new rpc fails to compile until it names its callers. Services
 * absent here let every caller of their edges call every rpc. packages/grpc's server applies it.
 */
type NotifierRpc = keyof typeof notificationV1.NotifierService;
type IdentityRpc = keyof typeof identityV1.IdentityService;
type QueryRpc = keyof typeof queryV1.QueryService;
type WeatherHistoryRpc = keyof typeof queryV1.WeatherHistoryService;
export interface RpcCallers {
  /** Full proto name of the service the table is for (`stormhook.notification.v1.NotifierService`). */
  readonly protoService: string;
  readonly rpcs: Readonly<Record<string, readonly GrpcCaller[]>>;
}

const GATEWAY_ONLY: readonly GrpcCaller[] = ['gateway'];
/** One table per proto service a service serves (query serves two). */
export const GRPC_RPC_CALLERS: { readonly [S in GrpcServiceName]?: readonly RpcCallers[] } = {
  notifier: [
    {
      protoService: serviceNameOf(notificationV1.NotifierService),
      rpcs: {
        // The alarm-matcher stores an account's webhook on its first registration and reads it back.
        createWebhookEndpoint: ['alarm-matcher'],
        getWebhookEndpoint: ['gateway', 'alarm-matcher'],
        // The rest serve /v1 for a customer.
        updateWebhookEndpoint: GATEWAY_ONLY,
        rotateSigningSecret: GATEWAY_ONLY,
        getSigningSecret: GATEWAY_ONLY,
        enableWebhookEndpoint: GATEWAY_ONLY,
        listDeliveries: GATEWAY_ONLY,
        getDelivery: GATEWAY_ONLY,
        redeliver: GATEWAY_ONLY,
        sendTestDelivery: GATEWAY_ONLY,
        getWebhookHealth: GATEWAY_ONLY,
        recoverDeliveries: GATEWAY_ONLY,
        getRecoveryJob: GATEWAY_ONLY,
      } satisfies Record<NotifierRpc, readonly GrpcCaller[]>,
    },
  ],
  identity: [
    {
      protoService: serviceNameOf(identityV1.IdentityService),
      rpcs: {
        // The alarm-matcher reads registration owners' entitlement (issue 23 item 3), nothing else:
        // a pod holding its key must not sign in, mint keys or change subscriptions.
        getAccessSnapshot: ['gateway', 'alarm-matcher'],
        login: GATEWAY_ONLY,
        refreshToken: GATEWAY_ONLY,
        logout: GATEWAY_ONLY,
        getTokenKeys: GATEWAY_ONLY,
        verifyApiKey: GATEWAY_ONLY,
        checkAccess: GATEWAY_ONLY,
        createUser: GATEWAY_ONLY,
        changeUserRoleAndStatus: GATEWAY_ONLY,
        getCurrentUser: GATEWAY_ONLY,
        getUser: GATEWAY_ONLY,
        listUsers: GATEWAY_ONLY,
        requestPasswordReset: GATEWAY_ONLY,
        resetPassword: GATEWAY_ONLY,
        createAccount: GATEWAY_ONLY,
        updateAccount: GATEWAY_ONLY,
        getAccount: GATEWAY_ONLY,
        requestPhoneActivation: GATEWAY_ONLY,
        activatePhoneNumber: GATEWAY_ONLY,
        updateSubscription: GATEWAY_ONLY,
        getSubscription: GATEWAY_ONLY,
        createApiKey: GATEWAY_ONLY,
        listApiKeys: GATEWAY_ONLY,
        revokeApiKey: GATEWAY_ONLY,
      } satisfies Record<IdentityRpc, readonly GrpcCaller[]>,
    },
  ],
  query: [
    {
      protoService: serviceNameOf(queryV1.QueryService),
      rpcs: {
        // The /v1 weather reads: the alarm-matcher's edge to query is for the history only.
        listPrecipitations: GATEWAY_ONLY,
        getPrecipitationGeometry: GATEWAY_ONLY,
        listThunderstorms: GATEWAY_ONLY,
        getThunderstorm: GATEWAY_ONLY,
        getForecast: GATEWAY_ONLY,
      } satisfies Record<QueryRpc, readonly GrpcCaller[]>,
    },
    {
      protoService: serviceNameOf(queryV1.WeatherHistoryService),
      rpcs: {
        // The back-test (alarm-matcher); the gateway for the console (architecture: "Weather history").
        readHistory: ['alarm-matcher', 'gateway'],
      } satisfies Record<WeatherHistoryRpc, readonly GrpcCaller[]>,
    },
  ],
};

/** The callers the table allows for each rpc of `definition` served by `service`; undefined when it does not narrow them. */
export function rpcCallersOf(service: string, protoService: string): RpcCallers['rpcs'] | undefined {
  const tables = (GRPC_RPC_CALLERS as Readonly<Record<string, readonly RpcCallers[] | undefined>>)[service];
  return tables?.find((table) => table.protoService === protoService)?.rpcs;
}

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
