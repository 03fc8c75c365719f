import type {
  ServerDuplexStream,
  ServerReadableStream,
  ServerUnaryCall,
  ServerWritableStream,
  StatusObject,
  UntypedHandleCall,
  sendUnaryData,
} from '@grpc/grpc-js';
import { ROOT_CONTEXT, SpanKind, context, trace, type Span } from '@opentelemetry/api';
import type { Logger } from '@stormhook/logger';
import type { MethodDefinition, ServiceDefinition } from '@stormhook/proto';
import { extractTraceContext } from '@stormhook/telemetry';
import { commonV1 } from '@stormhook/proto';
import { GrpcError, GrpcStatus } from './errors.js';
import { isDependencyOutage } from './outage.js';
import type { InternalTokenVerifier } from './internal-token.js';
import { authenticateCall } from './server-auth.js';
import { serverCallOf, type ServerCall, type ServerSurfaceCall } from './server-call.js';
import { carrierOf, endSpan, rpcSpan, tracer } from './tracing.js';

/** The async function a server supplies for one rpc, by its streaming shape. */
export type HandlerOf<M> =
  M extends MethodDefinition<infer Req, infer Res, infer ReqStream, infer ResStream>
    ? [ReqStream, ResStream] extends [false, false]
      ? (request: Req, call: ServerCall) => Promise<Res>
      : [ReqStream, ResStream] extends [false, true]
        ? (request: Req, call: ServerCall) => AsyncIterable<Res>
        : [ReqStream, ResStream] extends [true, false]
          ? (requests: AsyncIterable<Req>, call: ServerCall) => Promise<Res>
          : (requests: AsyncIterable<Req>, call: ServerCall) => AsyncIterable<Res>
    : never;

/** One handler per rpc of a generated service definition. */
export type HandlersOf<D extends ServiceDefinition> = { [K in keyof D]: HandlerOf<D[K]> };

export interface WrapOptions {
  logger: Logger;
  /** False for calls too frequent and dull to trace (health checks). */
  trace: boolean;
  /** Verifies each call's internal token; undefined serves anyone (the health service). */
  verifier?: InternalTokenVerifier | undefined;
  /** Per rpc (definition key), the services allowed to call it (edges.ts GRPC_RPC_CALLERS); undefined: every verified caller. */
  rpcCallers?: Readonly<Record<string, readonly string[]>> | undefined;
}

/** What serve() needs per rpc: the shared options, narrowed to the callers of this one rpc. */
interface ServeOptions extends WrapOptions {
  allowedCallers?: readonly string[] | undefined;
}

type AnyMethod = MethodDefinition<unknown, unknown>;
type Fail = (status: Partial<StatusObject>) => void;

/**
 * The status a failed handler answers with. A GrpcError is an outcome the handler chose and goes out
 * as is. Anything else is a bug or an outage: logged here with the stack, and answered as a bare
 * INTERNAL so no internal detail (queries, hosts, stack frames) reaches the caller.
 */
function failureStatus(error: unknown, call: ServerCall, logger: Logger): Partial<StatusObject> {
  if (error instanceof GrpcError) return error.toStatus();
  if (call.signal.aborted) return { code: GrpcStatus.CANCELLED, details: 'call cancelled' };
  if (isDependencyOutage(error)) {
    logger.warn({ err: error, rpc: call.path }, 'gRPC call failed: a dependency is unreachable');
    return new GrpcError(
      GrpcStatus.UNAVAILABLE,
      'a dependency of the service is unreachable; retry shortly',
      commonV1.ErrorDetail.create({
        reason: 'DEPENDENCY_UNAVAILABLE',
        message: 'a dependency of the service is unreachable; retry shortly',
        httpStatus: 503,
        retryAfterMs: 5_000,
      }),
    ).toStatus();
  }
  logger.error({ err: error, rpc: call.path }, 'gRPC handler failed');
  return { code: GrpcStatus.INTERNAL, details: 'internal error' };
}

/**
 * Runs `body` as the handling of `call`: inside a SERVER span whose parent is the trace context
 * the client put in the metadata, with failures turned into a status by `fail`.
 */
function serve(options: ServeOptions, call: ServerSurfaceCall, body: (serverCall: ServerCall) => Promise<void>, fail: Fail): void {
  // Checked before anything else (no span, no handler): an unauthenticated call gets no work done.
  const caller = options.verifier ? authenticateCall(call.metadata, options.verifier) : undefined;
  if (caller instanceof GrpcError) {
    options.logger.warn({ rpc: call.getPath(), peer: call.getPeer(), reason: caller.message }, 'gRPC call refused: no valid internal token');
    fail(caller.toStatus());
    return;
  }
  if (caller && options.allowedCallers && !options.allowedCallers.includes(caller.service)) {
    const refusal = new GrpcError(GrpcStatus.PERMISSION_DENIED, `${caller.service} may not call ${call.getPath()}`);
    options.logger.warn({ rpc: call.getPath(), caller: caller.service }, 'gRPC call refused: the caller may not call this rpc');
    fail(refusal.toStatus());
    return;
  }
  const { serverCall, dispose, cancelled } = serverCallOf(call, caller);
  const parent = extractTraceContext(carrierOf(call.metadata), ROOT_CONTEXT);
  const span: Span | undefined = options.trace
    ? (() => {
        const { name, kind, attributes } = rpcSpan(serverCall.path, SpanKind.SERVER);
        return tracer().startSpan(name, { kind, attributes }, parent);
      })()
    : undefined;
  const active = span ? trace.setSpan(parent, span) : parent;

  void context.with(active, async () => {
    let code: GrpcStatus = GrpcStatus.OK;
    let message: string | undefined;
    try {
      await body(serverCall);
      if (cancelled()) code = GrpcStatus.CANCELLED; // the client left before the handler finished
    } catch (error) {
      const status = failureStatus(error, serverCall, options.logger);
      code = status.code ?? GrpcStatus.UNKNOWN;
      message = status.details;
      if (span && !(error instanceof GrpcError)) span.recordException(error instanceof Error ? error : String(error));
      fail(status);
    } finally {
      dispose();
      if (span) endSpan(span, SpanKind.SERVER, code, message);
    }
  });
}

/** Resolves when `stream` can take more writes, or when the call is aborted. */
function drained(stream: NodeJS.EventEmitter, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.removeListener('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    stream.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

async function writeAll<T>(
  stream: { write(chunk: T): boolean; end(): void } & NodeJS.EventEmitter,
  messages: AsyncIterable<T>,
  signal: AbortSignal,
): Promise<void> {
  for await (const message of messages) {
    if (signal.aborted) return; // leaving the loop ends the handler's generator (its finally runs)
    if (!stream.write(message)) await drained(stream, signal);
  }
  if (!signal.aborted) stream.end();
}

/** The grpc-js handler for one rpc: the streaming shape decides how requests arrive and replies leave. */
export function wrapHandler(method: AnyMethod, handler: (...args: never[]) => unknown, options: ServeOptions): UntypedHandleCall {
  // The casts bridge the per-method types erased by HandlersOf; the method's flags pick the shape.
  const fn = handler as unknown as (input: unknown, call: ServerCall) => unknown;
  if (!method.requestStream && !method.responseStream) {
    return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) =>
      serve(
        options,
        call,
        async (serverCall) => callback(null, await (fn(call.request, serverCall) as Promise<unknown>)),
        (status) => callback(status),
      );
  }
  if (!method.requestStream) {
    return (call: ServerWritableStream<unknown, unknown>) =>
      serve(
        options,
        call,
        (serverCall) => writeAll(call, fn(call.request, serverCall) as AsyncIterable<unknown>, serverCall.signal),
        (status) => call.emit('error', status),
      );
  }
  if (!method.responseStream) {
    return (call: ServerReadableStream<unknown, unknown>, callback: sendUnaryData<unknown>) =>
      serve(
        options,
        call,
        async (serverCall) => callback(null, await (fn(call as AsyncIterable<unknown>, serverCall) as Promise<unknown>)),
        (status) => callback(status),
      );
  }
  return (call: ServerDuplexStream<unknown, unknown>) =>
    serve(
      options,
      call,
      (serverCall) => writeAll(call, fn(call as AsyncIterable<unknown>, serverCall) as AsyncIterable<unknown>, serverCall.signal),
      (status) => call.emit('error', status),
    );
}

/** grpc-js' implementation object for a whole service. */
export function wrapService<D extends ServiceDefinition>(definition: D, handlers: HandlersOf<D>, options: WrapOptions): Record<string, UntypedHandleCall> {
  const implementation: Record<string, UntypedHandleCall> = {};
  for (const [key, method] of Object.entries(definition)) {
    const handler = (handlers as Record<string, unknown>)[key];
    if (typeof handler !== 'function') throw new Error(`no handler for ${method.path} (expected a function '${key}')`);
    // A table that narrows the callers and forgets an rpc refuses every caller of it: fail closed.
    const allowedCallers = options.rpcCallers ? (options.rpcCallers[key] ?? []) : undefined;
    implementation[key] = wrapHandler(method as AnyMethod, handler as (...args: never[]) => unknown, { ...options, allowedCallers });
  }
  return implementation;
}
