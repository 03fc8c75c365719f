// Container health check (Docker HEALTHCHECK; Kubernetes uses the chart's probes instead).
// Liveness only: the process answers on its listener. Whether Kafka and the database are up is
// readiness, which the gateway's /v1/health/ready and the gRPC health status report.
// Lives in /app so that `@stormhook/grpc` resolves from the service's own node_modules.
const GRPC_PORTS = { identity: 50051, geo: 50052, ingest: 50053, query: 50054, 'alarm-matcher': 50055, notifier: 50056 };
const service = process.env.STORMHOOK_SERVICE ?? '';

async function gatewayAlive() {
  const port = process.env.HTTP_PORT || '8080';
  const response = await fetch(`http://127.0.0.1:${port}/v1/health/live`, { signal: AbortSignal.timeout(3000) });
  return response.ok;
}

async function grpcAlive() {
  const port = process.env.GRPC_PORT || GRPC_PORTS[service];
  if (!port) throw new Error(`unknown service "${service}": set STORMHOOK_SERVICE or GRPC_PORT`);
  const { checkHealth } = await import('@stormhook/grpc');
  // NOT_SERVING still proves the process is alive and serving gRPC.
  const state = await checkHealth(`127.0.0.1:${port}`, '', { timeoutMs: 3000 });
  return state === 'SERVING' || state === 'NOT_SERVING';
}

try {
  const alive = service === 'gateway' ? await gatewayAlive() : await grpcAlive();
  process.exit(alive ? 0 : 1);
} catch (error) {
  console.error(`health check failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
