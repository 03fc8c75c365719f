import type { Application, RequestHandler } from 'express';
import { ApiError, notAvailableYet } from '@stormhook/errors';
import type { OperationId } from '../contract/operation-ids.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { actingForCaller } from '../http/internal-caller.js';
import { jsonBody } from '../http/json-body.js';
import { requestState } from '../http/request-state.js';
import { validateRequest, type SchemaCompiler } from '../http/validate.js';
import { bySpecificity, expressPath } from './table.js';

/** What answers an operation once its input is valid; read it with `validatedBody(req, Schema)` (and Params, Query). */
export type Handler = RequestHandler;
export type Handlers = Partial<Record<OperationId, Handler>>;

/** Stand-in for operations whose backing service is not wired yet; runs after validation, so 400s are real. */
export function notImplemented(operationId: OperationId): Handler {
  return () => {
    throw new ApiError(501, notAvailableYet(operationId));
  };
}

export interface MountOptions {
  handlers: Handlers;
  /** Run after the operation is known and before the body is read: authentication, roles, subscription. */
  guards: (operation: RouteSpec) => RequestHandler[];
  bodyLimitBytes: number;
  compiler: SchemaCompiler;
}

/** Mounts every operation: mark it, guard it, parse and validate its input, then its handler. */
export function mountRoutes(app: Application, routes: readonly RouteSpec[], options: MountOptions): void {
  for (const spec of [...routes].sort(bySpecificity)) {
    const mark: RequestHandler = (req, _res, next) => {
      requestState(req).operation = spec;
      next();
    };
    const chain: RequestHandler[] = [
      mark,
      ...options.guards(spec),
      ...(spec.request.body ? jsonBody(options.bodyLimitBytes) : []),
      validateRequest(spec, options.compiler),
      actingForCaller(options.handlers[spec.operationId] ?? notImplemented(spec.operationId)),
    ];
    app.route(expressPath(spec.path))[spec.method](...chain);
  }
}
