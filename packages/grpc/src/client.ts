import { Client, Metadata, credentials as grpcCredentials, type CallOptions, type ChannelCredentials, type ChannelOptions } from '@grpc/grpc-js';
import { SpanKind, context, trace, type Span } from '@opentelemetry/api';
import type { MethodDefinition, ServiceDefinition } from '@stormhook/proto';
import { injectTraceContext } from '@stormhook/telemetry';
import { GrpcStatus, toGrpcError } from './errors.js';
import { INTERNAL_TOKEN_METADATA } from './internal-token.js';
import { endSpan, rpcSpan, tracer } from './tracing.js';

export interface ClientOptions {
  /** Deadline of every unary and client-streaming call, in milliseconds. Default 5000. */
  deadlineMs?: number;
  /** Trace every call in a CLIENT span and propagate its context (default true). */
  trace?: boolean;
  /** Default insecure (plaintext inside the cluster). */
  credentials?: ChannelCredentials;
  channelOptions?: Partial<ChannelOptions>;
  /**
   * The internal token each call carries (servers refuse calls without one): e.g.
   * `tokens.serviceTokenFor('geo')`, or the gateway's token of the request's principal. Called once
   * per call with the request (undefined for client-streaming calls); it should return a cached token.
   */
  internalToken?: (request: unknown) => string | undefined;
}

export interface CallOverrides {
  /**
   * Deadline of this call, in milliseconds. Calls that stream responses get none unless given here,
   * since a watch is meant to outlive any default.
   */
  deadlineMs?: number;
  /** Extra request metadata. */
  metadata?: Record<string, string>;
  /** Cancels the call (it then rejects with CANCELLED). */
  signal?: AbortSignal;
}

type Requests<T> = AsyncIterable<T> | Iterable<T>;

/** The promise- or iterator-returning function a client exposes for one rpc, by its streaming shape. */
export type ClientMethodOf<M> =
  M extends MethodDefinition<infer Req, infer Res, infer ReqStream, infer ResStream>
    ? [ReqStream, ResStream] extends [false, false]
      ? (request: Req, overrides?: CallOverrides) => Promise<Res>
      : [ReqStream, ResStream] extends [false, true]
        ? (request: Req, overrides?: CallOverrides) => AsyncIterable<Res>
        : [ReqStream, ResStream] extends [true, false]
          ? (requests: Requests<Req>, overrides?: CallOverrides) => Promise<Res>
          : (requests: Requests<Req>, overrides?: CallOverrides) => AsyncIterable<Res>
    : never;

/**
 * One method per rpc (keyed like the definition, e.g. `check`), each rejecting with a GrpcError
 * on a non-OK status; `close()` releases the channel.
 */
export type GrpcClient<D extends ServiceDefinition> = { [K in keyof D]: ClientMethodOf<D[K]> } & { close(): void };

type AnyMethod = MethodDefinition<unknown, unknown>;

interface CallSetup {
  metadata: Metadata;
  options: CallOptions;
  span: Span | undefined;
}

export function createClient<D extends ServiceDefinition>(definition: D, address: string, options: ClientOptions = {}): GrpcClient<D> {
  if ('close' in definition) throw new Error('a service with an rpc named Close cannot get a client: close() is taken');
  // Services start in any order and restart independently: reconnect quickly (grpc-js otherwise backs
  // off up to two minutes after a refused connection, failing every call meanwhile).
  const client = new Client(address, options.credentials ?? grpcCredentials.createInsecure(), {
    'grpc.initial_reconnect_backoff_ms': 250,
    'grpc.max_reconnect_backoff_ms': 2_000,
    // channelz (per-call counters and timestamps for a debugging service nobody here queries) costs
    // every call; nothing registers a channelz server.
    'grpc.enable_channelz': 0,
    ...options.channelOptions,
  });
  const defaultDeadlineMs = options.deadlineMs ?? 5000;
  const tracing = options.trace ?? true;

  /** Starts the CLIENT span and writes its context into the metadata, so the server's span becomes its child. */
  const internalToken = options.internalToken;
  const setup = (method: AnyMethod, overrides: CallOverrides, request?: unknown): CallSetup => {
    const { name, kind, attributes } = rpcSpan(method.path, SpanKind.CLIENT);
    const span = tracing ? tracer().startSpan(name, { kind, attributes }) : undefined;
    const ctx = span ? trace.setSpan(context.active(), span) : context.active();
    const metadata = new Metadata();
    for (const [key, value] of Object.entries(overrides.metadata ?? {})) metadata.set(key, value);
    for (const [key, value] of Object.entries(injectTraceContext({}, ctx))) metadata.set(key, value);
    const token = internalToken?.(request);
    if (token !== undefined) metadata.set(INTERNAL_TOKEN_METADATA, token);
    const deadlineMs = overrides.deadlineMs ?? (method.responseStream ? undefined : defaultDeadlineMs);
    // Wait for ready: a call made while the peer is (re)connecting waits for it within its deadline
    // instead of failing at once; a peer that stays away still ends in DEADLINE_EXCEEDED (a 503).
    metadata.setOptions({ waitForReady: true });
    return { metadata, span, options: deadlineMs === undefined ? {} : { deadline: Date.now() + deadlineMs } };
  };

  const finish = (span: Span | undefined, error?: unknown): never | void => {
    if (error === undefined) {
      if (span) endSpan(span, SpanKind.CLIENT, GrpcStatus.OK);
      return;
    }
    const failure = toGrpcError(error);
    if (span) endSpan(span, SpanKind.CLIENT, failure.code, failure.message);
    throw failure;
  };

  const cancelOn = (signal: AbortSignal | undefined, call: { cancel(): void }): void => {
    if (signal?.aborted) call.cancel();
    else signal?.addEventListener('abort', () => call.cancel(), { once: true });
  };

  const unary =
    (method: AnyMethod) =>
    async (request: unknown, overrides: CallOverrides = {}) => {
      const { metadata, options: callOptions, span } = setup(method, overrides, request);
      try {
        const response = await new Promise<unknown>((resolve, reject) => {
          const call = client.makeUnaryRequest(
            method.path,
            method.requestSerialize,
            method.responseDeserialize,
            request,
            metadata,
            callOptions,
            (error, value) => (error ? reject(error) : resolve(value)),
          );
          cancelOn(overrides.signal, call);
        });
        finish(span);
        return response;
      } catch (error) {
        return finish(span, error);
      }
    };

  const clientStream =
    (method: AnyMethod) =>
    async (requests: Requests<unknown>, overrides: CallOverrides = {}) => {
      const { metadata, options: callOptions, span } = setup(method, overrides);
      try {
        const response = await new Promise<unknown>((resolve, reject) => {
          const call = client.makeClientStreamRequest(
            method.path,
            method.requestSerialize,
            method.responseDeserialize,
            metadata,
            callOptions,
            (error, value) => (error ? reject(error) : resolve(value)),
          );
          cancelOn(overrides.signal, call);
          pump(requests, call).catch((error: unknown) => {
            call.cancel();
            reject(error);
          });
        });
        finish(span);
        return response;
      } catch (error) {
        return finish(span, error);
      }
    };

  const serverStream = (method: AnyMethod) =>
    async function* (input: unknown, overrides: CallOverrides = {}) {
      const { metadata, options: callOptions, span } = setup(method, overrides, method.requestStream ? undefined : input);
      const call = method.requestStream
        ? client.makeBidiStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, metadata, callOptions)
        : client.makeServerStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, input, metadata, callOptions);
      // The stream reports a late CANCELLED after an early break; without a listener that would crash the process.
      call.on('error', () => {});
      cancelOn(overrides.signal, call);
      let failure: unknown;
      try {
        if (method.requestStream) {
          pump(input as Requests<unknown>, call as unknown as Writable).catch((error: unknown) => {
            failure = error;
            call.cancel();
          });
        }
        for await (const message of call as AsyncIterable<unknown>) yield message;
      } catch (error) {
        failure ??= error;
      } finally {
        // Also reached when the consumer stops early (break): cancel the call, end the span, and
        // rethrow a failure as a GrpcError. cancel() is a no-op once the server has finished.
        call.cancel();
        finish(span, failure);
      }
    };

  const methods: Record<string, unknown> = {};
  for (const [key, method] of Object.entries(definition) as Array<[string, AnyMethod]>) {
    methods[key] = method.responseStream ? serverStream(method) : method.requestStream ? clientStream(method) : unary(method);
  }
  methods['close'] = () => client.close();
  return methods as GrpcClient<D>;
}

interface Writable {
  write(chunk: unknown): boolean;
  end(): void;
  once(event: 'drain', listener: () => void): unknown;
}

/** Writes every request, respecting backpressure, then half-closes the stream. */
async function pump(requests: Requests<unknown>, call: Writable): Promise<void> {
  for await (const request of requests) {
    if (!call.write(request)) await new Promise<void>((resolve) => call.once('drain', resolve));
  }
  call.end();
}
