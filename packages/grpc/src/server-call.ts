import type { Deadline, Metadata } from '@grpc/grpc-js';
import type { InternalCaller } from './internal-token.js';

/** The part of every kind of grpc-js server call used here (grpc-js does not export its own type). */
export interface ServerSurfaceCall {
  readonly cancelled: boolean;
  readonly metadata: Metadata;
  getPeer(): string;
  getDeadline(): Deadline;
  getPath(): string;
  once(event: 'cancelled', listener: () => void): unknown;
  removeListener(event: 'cancelled', listener: () => void): unknown;
}

/** What a handler gets besides the request: the context of the call it serves. */
export interface ServerCall {
  /** `/<package>.<Service>/<Method>`. */
  readonly path: string;
  /** Request metadata (headers) as sent by the client. */
  readonly metadata: Metadata;
  /** The client's address, e.g. `ipv4:127.0.0.1:51234`. */
  readonly peer: string;
  /** When the client stops waiting; undefined when it set no deadline. */
  readonly deadline: Date | undefined;
  /**
   * Aborted when the call ends before the handler does: the client cancelled, its deadline passed
   * or the server is shutting down. Pass it on to slow work (database, HTTP) so it stops as well.
   */
  readonly signal: AbortSignal;
  /**
   * Who calls, from the verified internal token (absent only for the health service and servers
   * built without authentication). Read the acting customer with `actingPrincipal(call, claimed)`.
   */
  readonly caller?: InternalCaller;
}

/** Builds the handler's view of a grpc-js call; `dispose` detaches the listeners once the call is over. */
export function serverCallOf(call: ServerSurfaceCall, caller?: InternalCaller): { serverCall: ServerCall; dispose(): void } {
  const controller = new AbortController();
  const onCancel = (): void => controller.abort(new Error('call cancelled by the client or its deadline'));
  if (call.cancelled) onCancel();
  else call.once('cancelled', onCancel);

  const deadline = call.getDeadline();
  const serverCall: ServerCall = {
    path: call.getPath(),
    metadata: call.metadata,
    peer: call.getPeer(),
    deadline: deadline instanceof Date ? deadline : Number.isFinite(deadline) ? new Date(deadline) : undefined,
    signal: controller.signal,
    ...(caller ? { caller } : {}),
  };
  return { serverCall, dispose: () => call.removeListener('cancelled', onCancel) };
}
