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

/**
 * Builds the handler's view of a grpc-js call; `dispose` detaches the listeners once the call is
 * over; `cancelled` tells whether the call ended early without making the signal.
 */
export function serverCallOf(call: ServerSurfaceCall, caller?: InternalCaller): { serverCall: ServerCall; dispose(): void; cancelled(): boolean } {
  // The AbortController is made only when a handler reads the signal: most calls are answered from
  // memory and never pass it on, and one per call was a visible share of a gateway request's CPU.
  let controller: AbortController | undefined;
  let cancelled = call.cancelled;
  const reason = () => new Error('call cancelled by the client or its deadline');
  const onCancel = (): void => {
    cancelled = true;
    controller?.abort(reason());
  };
  if (!cancelled) call.once('cancelled', onCancel);

  const deadline = call.getDeadline();
  const serverCall: ServerCall = {
    path: call.getPath(),
    metadata: call.metadata,
    peer: call.getPeer(),
    deadline: deadline instanceof Date ? deadline : Number.isFinite(deadline) ? new Date(deadline) : undefined,
    get signal(): AbortSignal {
      if (!controller) {
        controller = new AbortController();
        if (cancelled) controller.abort(reason());
      }
      return controller.signal;
    },
    ...(caller ? { caller } : {}),
  };
  return { serverCall, dispose: () => call.removeListener('cancelled', onCancel), cancelled: () => cancelled };
}
