export { createGrpcServer, type GrpcServer, type GrpcServerOptions, type AddOptions } from './server.js';
export { createClient, type GrpcClient, type ClientOptions, type CallOverrides, type ClientMethodOf } from './client.js';
export { checkHealth, type HealthState } from './check-health.js';
export { GrpcError, GrpcStatus, ERROR_DETAIL_TRAILER, toGrpcError } from './errors.js';
export { httpStatusOf, httpStatusOfError } from './http-status.js';
export type { Health, SettableStatus } from './health.js';
export type { HandlerOf, HandlersOf } from './handlers.js';
export type { ServerCall } from './server-call.js';
export { isDependencyOutage } from './outage.js';
