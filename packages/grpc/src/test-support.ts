// Shared by this package's tests: a small service over existing contract messages, a logger that
// keeps its lines, and a server started on port 0.
import { createLogger, type Logger } from '@stormhook/logger';
import { commonV1, methodDefinition } from '@stormhook/proto';
import { createGrpcServer, type GrpcServer } from './server.js';
import type { HandlersOf } from './handlers.js';
import type { InternalTokenVerifier } from './internal-token.js';

const path = (method: string): string => `/stormhook.test.v1.ProbeService/${method}`;
const { GeoPoint, LinearRing, ErrorDetail } = commonV1;

/** Test-only service: paths need not exist in proto/ for gRPC, only the messages must. */
export const ProbeService = {
  echo: methodDefinition<commonV1.GeoPoint, commonV1.GeoPoint, false, false>({
    path: path('Echo'),
    originalName: 'Echo',
    requestStream: false,
    responseStream: false,
    requestType: GeoPoint,
    responseType: GeoPoint,
  }),
  fail: methodDefinition<commonV1.ErrorDetail, commonV1.GeoPoint, false, false>({
    path: path('Fail'),
    originalName: 'Fail',
    requestStream: false,
    responseStream: false,
    requestType: ErrorDetail,
    responseType: GeoPoint,
  }),
  points: methodDefinition<commonV1.LinearRing, commonV1.GeoPoint, false, true>({
    path: path('Points'),
    originalName: 'Points',
    requestStream: false,
    responseStream: true,
    requestType: LinearRing,
    responseType: GeoPoint,
  }),
  collect: methodDefinition<commonV1.GeoPoint, commonV1.LinearRing, true, false>({
    path: path('Collect'),
    originalName: 'Collect',
    requestStream: true,
    responseStream: false,
    requestType: GeoPoint,
    responseType: LinearRing,
  }),
  mirror: methodDefinition<commonV1.GeoPoint, commonV1.GeoPoint, true, true>({
    path: path('Mirror'),
    originalName: 'Mirror',
    requestStream: true,
    responseStream: true,
    requestType: GeoPoint,
    responseType: GeoPoint,
  }),
};

export interface LogLines {
  logger: Logger;
  lines: Array<Record<string, unknown>>;
}

export function memoryLogger(): LogLines {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    service: 'grpc-spec',
    destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  return { logger, lines };
}

export async function startProbeServer(
  handlers: HandlersOf<typeof ProbeService>,
  logger = memoryLogger().logger,
  internalTokens: InternalTokenVerifier | 'unauthenticated' = 'unauthenticated',
): Promise<{ server: GrpcServer; address: string }> {
  const server = createGrpcServer({ logger, serviceName: 'probe', shutdownTimeoutMs: 1000, internalTokens });
  server.add(ProbeService, handlers);
  const port = await server.listen('127.0.0.1:0');
  return { server, address: `127.0.0.1:${port}` };
}

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
