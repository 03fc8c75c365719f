import type { Request } from 'express';
import type { Context } from '@stormhook/telemetry';
import type { RouteSpec } from '../contract/route-spec.js';

/** The request input after validation (path and query parameters coerced to their schema types). */
export interface ValidatedInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

interface RequestState {
  operation?: RouteSpec;
  /** Context holding the server span, so late callbacks (error logging) can join the trace. */
  traceContext?: Context;
  input?: ValidatedInput;
}

// Kept beside the request rather than in res.locals, which is typed `any` and shared with templates.
const states = new WeakMap<Request, RequestState>();

export function requestState(req: Request): RequestState {
  let state = states.get(req);
  if (!state) {
    state = {};
    states.set(req, state);
  }
  return state;
}

/** The validated input of the current operation; handlers read this rather than re-parsing req. */
export function validatedInput(req: Request): ValidatedInput {
  const input = requestState(req).input;
  if (!input) throw new Error('validatedInput() called outside a validated operation');
  return input;
}

export function currentOperation(req: Request): RouteSpec | undefined {
  return requestState(req).operation;
}
