import type { MessageCodec } from './codec.js';

/**
 * One rpc, shaped like @grpc/grpc-js' `MethodDefinition` (so a service object can be handed to
 * `Server.addService` and `makeGenericClientConstructor` as is), plus the typed codecs and the
 * streaming flags as literal types so helpers can derive handler and client signatures.
 */
export interface MethodDefinition<Req, Res, ReqStream extends boolean = boolean, ResStream extends boolean = boolean> {
  /** `/<package>.<Service>/<Method>`, the HTTP/2 path of the call. */
  readonly path: string;
  /** The rpc name as written in the .proto file. */
  readonly originalName: string;
  readonly requestStream: ReqStream;
  readonly responseStream: ResStream;
  readonly requestType: MessageCodec<Req>;
  readonly responseType: MessageCodec<Res>;
  readonly requestSerialize: (value: Req) => Buffer;
  readonly requestDeserialize: (bytes: Buffer) => Req;
  readonly responseSerialize: (value: Res) => Buffer;
  readonly responseDeserialize: (bytes: Buffer) => Res;
}

/**
 * Any generated service: method key (the rpc name in lowerCamelCase) to its definition. `any` is
 * deliberate: a definition's request type appears both as input and output, so no narrower type
 * would accept every concrete service.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- deliberate, see above
export type ServiceDefinition = { readonly [method: string]: MethodDefinition<any, any> };

/** Wraps encoded bytes as a Buffer without copying (grpc-js wants Buffers). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function methodDefinition<Req, Res, ReqStream extends boolean, ResStream extends boolean>(spec: {
  path: string;
  originalName: string;
  requestStream: ReqStream;
  responseStream: ResStream;
  requestType: MessageCodec<Req>;
  responseType: MessageCodec<Res>;
}): MethodDefinition<Req, Res, ReqStream, ResStream> {
  const { requestType, responseType } = spec;
  return {
    ...spec,
    requestSerialize: (value) => asBuffer(requestType.encode(value)),
    requestDeserialize: (bytes) => requestType.decode(bytes),
    responseSerialize: (value) => asBuffer(responseType.encode(value)),
    responseDeserialize: (bytes) => responseType.decode(bytes),
  };
}

/** `grpc.health.v1.Health` from a definition's paths: the name health checks and logs use. */
export function serviceNameOf(definition: ServiceDefinition): string {
  const first = Object.values(definition)[0];
  if (!first) throw new Error('a service definition needs at least one method');
  const match = /^\/([^/]+)\/[^/]+$/.exec(first.path);
  if (!match?.[1]) throw new Error(`not a gRPC method path: ${first.path}`);
  return match[1];
}
