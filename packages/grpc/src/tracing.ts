import type { Metadata } from '@grpc/grpc-js';
import { ProxyTracerProvider, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import { GrpcStatus } from './errors.js';

let cached: { global: unknown; provider: unknown; tracer: Tracer } | undefined;

/**
 * The global provider's tracer, looked up again only when the provider behind the global was
 * replaced (initTelemetry in tests): the lookup builds a key and searches a map, on every call.
 */
export function tracer(): Tracer {
  const global = trace.getTracerProvider();
  const provider = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
  if (cached?.global !== global || cached.provider !== provider) cached = { global, provider, tracer: trace.getTracer('@stormhook/grpc') };
  return cached.tracer;
}

const spanNames = new Map<string, { name: string; attributes: Attributes }>();

/** Span name and attributes per the OpenTelemetry RPC conventions, from `/pkg.Service/Method` (once per method). */
export function rpcSpan(path: string, kind: SpanKind): { name: string; attributes: Attributes; kind: SpanKind } {
  let known = spanNames.get(path);
  if (!known) {
    const [, service = '', method = ''] = /^\/([^/]*)\/(.*)$/.exec(path) ?? [];
    known = { name: `${service}/${method}`, attributes: { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method } };
    // Paths come from the generated definitions, a few dozen; the bound only guards against a caller's odd paths.
    if (spanNames.size < 1_000) spanNames.set(path, known);
  }
  return { ...known, kind };
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
