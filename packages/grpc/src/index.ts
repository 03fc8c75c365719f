export { createGrpcServer, type GrpcServer, type GrpcServerOptions, type AddOptions } from './server.js';
export { createClient, type GrpcClient, type ClientOptions, type CallOverrides, type ClientMethodOf } from './client.js';
export { checkHealth, type HealthState } from './check-health.js';
export { GrpcError, GrpcStatus, ERROR_DETAIL_TRAILER, toGrpcError } from './errors.js';
export { httpStatusOf, httpStatusOfError } from './http-status.js';
export type { Health, SettableStatus } from './health.js';
export type { HandlerOf, HandlersOf } from './handlers.js';
export type { ServerCall } from './server-call.js';
export { isDependencyOutage } from './outage.js';
export { GRPC_EDGES, GRPC_SERVICES, callersOf, grpcAddressVariable, grpcEdges, type GrpcCaller, type GrpcEdge, type GrpcServiceName } from './edges.js';
export {
  INTERNAL_TOKEN_METADATA,
  INTERNAL_KEY_MIN_LENGTH,
  InternalTokenSigner,
  InternalTokenVerifier,
  type InternalCaller,
  type RefusalReason,
  type VerifyOutcome,
} from './internal-token.js';
export {
  PRINCIPAL_PUBLIC_KEY_VARIABLE,
  PRINCIPAL_SIGNING_KEY_VARIABLE,
  newPrincipalKeyPair,
  principalPublicKeys,
  principalPublicKeyPem,
  principalSigningKey,
} from './principal-keys.js';
export { localInternalKeys, randomInternalKey, type InternalKeyEnv } from './local-keys.js';
export { InternalTokens, type InternalTokensOptions } from './internal-tokens.js';
export { actingPrincipal, type ClaimedCaller } from './server-auth.js';
export { serviceSignedPrincipalToken, testInternalKeys, testInternalTokens, tokenOfRequestPrincipal, untrustedTokens } from './test-tokens.js';
