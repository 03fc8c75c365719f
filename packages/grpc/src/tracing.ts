import type { Metadata } from '@grpc/grpc-js';
import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { GrpcStatus } from './errors.js';

export const tracer = () => trace.getTracer('@stormhook/grpc');

/** Span name and attributes per the OpenTelemetry RPC conventions, from `/pkg.Service/Method`. */
export function rpcSpan(path: string, kind: SpanKind): { name: string; attributes: Attributes; kind: SpanKind } {
  const [, service = '', method = ''] = /^\/([^/]*)\/(.*)$/.exec(path) ?? [];
  return {
    name: `${service}/${method}`,
    kind,
    attributes: { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method },
  };
}

/** Codes that mean the server failed, per the conventions; a client error (NOT_FOUND, ...) leaves a SERVER span unset. */
const SERVER_FAULTS = new Set<GrpcStatus>([
  GrpcStatus.UNKNOWN,
  GrpcStatus.DEADLINE_EXCEEDED,
  GrpcStatus.UNIMPLEMENTED,
  GrpcStatus.INTERNAL,
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.DATA_LOSS,
]);

export function endSpan(span: Span, kind: SpanKind, code: GrpcStatus, message?: string): void {
  span.setAttribute('rpc.grpc.status_code', code);
  const failed = kind === SpanKind.CLIENT ? code !== GrpcStatus.OK : SERVER_FAULTS.has(code);
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR, ...(message ? { message } : {}) });
  span.end();
}

/** Metadata as the carrier @stormhook/telemetry reads (first value of each key). */
export function carrierOf(metadata: Metadata): Record<string, string | Buffer> {
  return metadata.getMap();
}
