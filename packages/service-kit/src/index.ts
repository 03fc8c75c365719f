export { devFallbacksEnv, missingWithoutDevFallbacks } from './dev-fallbacks.js';
export { platformEnv, grpcEnv, internalSigningEnv, internalPublicKeysEnv, kafkaLoginEnv } from './env.js';
export { internalTokensOf, internalVerifierOf, signingKeyOf } from './internal-keys.js';
export { startPlatform, type Platform, type PlatformConfig, type PlatformOptions } from './platform.js';
export { startGrpcService, LIVENESS_SERVICE, type GrpcServiceConfig, type RunningGrpcService, type ServiceParts } from './grpc-service.js';
export { DependencyMonitor, type DependencyCheck, type DependencyMonitorOptions } from './dependency-monitor.js';
export { runMain, type Stoppable, type RunMainOptions } from './run-main.js';
export { startMetricsServer, type MetricsServer } from './metrics-server.js';
