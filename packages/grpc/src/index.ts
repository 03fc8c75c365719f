export { createGrpcServer, type GrpcServer, type GrpcServerOptions, type AddOptions } from './server.js';
export { createClient, type GrpcClient, type ClientOptions, type CallOverrides, type ClientMethodOf } from './client.js';
export { checkHealth, HealthChecker, type HealthState } from './check-health.js';
export { GrpcError, GrpcStatus, ERROR_DETAIL_TRAILER, toGrpcError } from './errors.js';
export { errorMapper, grpcFailure, type ErrorMapper, type ErrorMapping, type FailureDetail, type KindedError } from './error-mapping.js';
export { httpStatusOf, httpStatusOfError } from './http-status.js';
export type { Health, SettableStatus } from './health.js';
export type { HandlerOf, HandlersOf } from './handlers.js';
export type { ServerCall } from './server-call.js';
export { isDependencyOutage } from './outage.js';
export {
  GRPC_EDGES,
  GRPC_RPC_CALLERS,
  GRPC_SERVICES,
  rpcCallersOf,
  callersOf,
  callingServices,
  grpcAddressVariable,
  grpcEdges,
  type GrpcCaller,
  type GrpcEdge,
  type GrpcServiceName,
  type RpcCallers,
} from './edges.js';
export {
  INTERNAL_TOKEN_METADATA,
  PRINCIPAL_ISSUER,
  InternalTokenSigner,
  InternalTokenVerifier,
  type InternalCaller,
  type RefusalReason,
  type VerifyOutcome,
} from './internal-token.js';
export {
  INTERNAL_PUBLIC_KEYS_VARIABLE,
  newServiceKeyPair,
  parsePublicKeys,
  publicKeyPemOf,
  servicePublicKeys,
  serviceSigningKey,
  signingKeyVariable,
  type PublicKeysByService,
  type SigningKeyVariable,
} from './service-keys.js';
export {
  internalKeysOf,
  localInternalKeys,
  MESSAGE_KEY_VARIABLE,
  MESSAGE_PUBLIC_KEY_VARIABLE,
  signingKeyVariables,
  type InternalKeyEnv,
} from './local-keys.js';
export { InternalTokens, type InternalTokensOptions } from './internal-tokens.js';
export { actingPrincipal, type ClaimedCaller } from './server-auth.js';
export { forgedToken, sharedKeyToken, testInternalKeys, testInternalTokens, tokenOfRequestPrincipal, untrustedTokens } from './test-tokens.js';
