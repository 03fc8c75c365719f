import express, { type Application, type RequestHandler } from 'express';
import type { Logger } from '@stormhook/logger';
import { trace, type Tracer } from '@stormhook/telemetry';
import type { RouteSpec } from './contract/route-spec.js';
import { consoleRouter } from './console/console-route.js';
import { docsRouter } from './docs/docs-route.js';
import { HEALTH_PATHS, healthHandlers } from './health/handlers.js';
import type { HealthPort } from './health/health-port.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { tracing } from './http/tracing.js';
import type { TrustProxy } from './http/trust-proxy.js';
import { createSchemaCompiler } from './http/validate.js';
import { buildAsyncApiDocument } from './openapi/asyncapi.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { mountRoutes, type Handlers } from './routes/mount.js';
import { ROUTES } from './routes/table.js';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppDeps {
  logger: Logger;
  health: HealthPort;
  /** Components `/v1/health/ready` follows (see healthHandlers); default every component. */
  readiness?: readonly string[];
  /** Handlers by operationId; operations without one answer 501 after validation. */
  handlers?: Handlers;
  /** Middleware per operation before its body is read (authentication, roles, subscription checks). */
  guards?: (operation: RouteSpec) => RequestHandler[];
  /** Largest accepted JSON body; 413 above it. Default 1 MiB. */
  bodyLimitBytes?: number;
  /** Runs before routing on every request (the abuse limits' 4xx screen, http/rate-limits.ts). */
  screen?: RequestHandler;
  /** Default: the global tracer provider's `@stormhook/gateway` tracer. */
  tracer?: Tracer;
  /** express `trust proxy` (HTTP_TRUST_PROXY): who may name the client address in X-Forwarded-For. Default: nobody. */
  trustProxy?: TrustProxy;
}

const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
};

/** The public HTTP surface: every /v1 operation of interface.md, validated, traced, errors as ErrorResponse. */
export function createApp(deps: AppDeps): Application {
  const app = express();
  app.disable('x-powered-by');
  // Express hashes every body it sends for a weak ETag, worth it only for conditional GETs of
  // unchanged resources: our answers are per caller and mostly POSTs (which never answer 304), and a
  // conditional GET would still be metered. The hash cost a few per cent of a request's CPU.
  app.set('etag', false);
  // req.ip, which per-address limits key on, is the client behind the trusted proxies, not the proxy.
  app.set('trust proxy', deps.trustProxy ?? false);
  app.use(securityHeaders);
  app.use(tracing({ tracer: deps.tracer ?? trace.getTracer('@stormhook/gateway'), ignorePaths: HEALTH_PATHS }));
  if (deps.screen) app.use(deps.screen);

  const openapi = buildOpenApiDocument(ROUTES);
  const asyncapi = buildAsyncApiDocument();
  const health = healthHandlers(deps.health, deps.readiness);
  const builtIn: Handlers = {
    getHealth: health.full,
    getLiveness: health.live,
    getReadiness: health.ready,
    getOpenApiDocument: (_req, res) => {
      res.json(openapi);
    },
    getAsyncApiDocument: (_req, res) => {
      res.json(asyncapi);
    },
  };
  // The API reference page (not an operation of /v1, so outside the route table and its guards).
  app.use(docsRouter());
  // The customer console (web/console), a client of /v1 like any other: also outside the route table.
  app.use(consoleRouter());
  mountRoutes(app, ROUTES, {
    handlers: { ...builtIn, ...deps.handlers },
    guards: deps.guards ?? (() => []),
    bodyLimitBytes: deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    compiler: createSchemaCompiler(),
  });

  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return app;
}

export type { Handler, Handlers } from './routes/mount.js';
export type { HealthPort, HealthReport, ComponentHealth, HealthStatus } from './health/health-port.js';
export type { RouteSpec } from './contract/route-spec.js';
export type { OperationId } from './contract/operation-ids.js';
export { validatedInput, type ValidatedInput } from './http/request-state.js';
export { validatedBody, validatedParams, validatedQuery } from './http/validated-input.js';
export type { Validated } from './schemas/json-schema.js';
