import { Server, ServerCredentials, type ServerOptions } from '@grpc/grpc-js';
import type { Logger } from '@stormhook/logger';
import { grpcHealthV1, serviceNameOf, type ServiceDefinition } from '@stormhook/proto';
import { rpcCallersOf } from './edges.js';
import { wrapService, type HandlersOf } from './handlers.js';
import type { InternalTokenVerifier } from './internal-token.js';
import { HealthRegistry, healthHandlers, type Health } from './health.js';

export interface GrpcServerOptions {
  logger: Logger;
  /** Name of the microservice (e.g. `geo`), for logs. */
  serviceName: string;
  /** How long shutdown() lets running calls finish before cutting them off. Default 5000. */
  shutdownTimeoutMs?: number;
  /** Passed to grpc-js (message size limits, keepalive, ...). */
  serverOptions?: ServerOptions;
  /**
   * Verifies the internal token of every call (audience = this service); the caller handlers see
   * comes only from it. `'unauthenticated'` serves anyone: for test doubles and benchmarks only.
   */
  internalTokens: InternalTokenVerifier | 'unauthenticated';
}

export interface AddOptions {
  /** Trace every call in a SERVER span (default true). */
  trace?: boolean;
  /** Require the internal token (default true; false only for the health service probes use). */
  authenticate?: boolean;
}

export interface GrpcServer {
  /** Serves a generated service. Its health status starts as SERVING; change it through `health`. */
  add<D extends ServiceDefinition>(definition: D, handlers: HandlersOf<D>, options?: AddOptions): void;
  /** Statuses the standard health service reports; `''` (the whole server) starts as SERVING. */
  readonly health: Health;
  /** Binds `host:port` (port 0 picks a free one) and resolves with the bound port. */
  listen(address: string): Promise<number>;
  /**
   * Reports NOT_SERVING everywhere, ends health watches, lets running calls finish for up to
   * `shutdownTimeoutMs`, then cuts off what is left. Safe to call more than once.
   */
  shutdown(): Promise<void>;
}

export function createGrpcServer(options: GrpcServerOptions): GrpcServer {
  const { logger, serviceName } = options;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 5000;
  // channelz off as on the clients (see createClient): per-call bookkeeping nothing reads.
  const server = new Server({ 'grpc.enable_channelz': 0, ...options.serverOptions });
  const registry = new HealthRegistry();
  let listening = false;
  let stopping: Promise<void> | undefined;

  const add = <D extends ServiceDefinition>(definition: D, handlers: HandlersOf<D>, addOptions: AddOptions = {}): void => {
    if (listening) throw new Error('add every service before listen(): grpc-js does not serve services added later');
    const verifier = addOptions.authenticate === false || options.internalTokens === 'unauthenticated' ? undefined : options.internalTokens;
    const rpcCallers = verifier ? rpcCallersOf(serviceName, serviceNameOf(definition)) : undefined;
    server.addService(definition, wrapService(definition, handlers, { logger, trace: addOptions.trace ?? true, verifier, rpcCallers }));
  };

  // Probes (kubelet, the gateway's /v1/health) hold no key, and health reveals nothing but a status.
  add(grpcHealthV1.HealthService, healthHandlers(registry), { trace: false, authenticate: false });
  registry.setStatus('', 'SERVING');

  return {
    health: registry,
    add(definition, handlers, addOptions) {
      add(definition, handlers, addOptions);
      registry.setStatus(serviceNameOf(definition), 'SERVING');
    },
    listen(address) {
      if (listening) return Promise.reject(new Error('listen() was called already'));
      listening = true;
      return new Promise((resolve, reject) => {
        server.bindAsync(address, ServerCredentials.createInsecure(), (error, port) => {
          if (error) {
            listening = false;
            reject(error);
            return;
          }
          logger.info({ service: serviceName, address, port }, 'gRPC server listening');
          resolve(port);
        });
      });
    },
    shutdown() {
      stopping ??= new Promise<void>((resolve) => {
        registry.close();
        if (!listening) {
          server.forceShutdown();
          resolve();
          return;
        }
        const timer = setTimeout(() => {
          logger.warn({ service: serviceName, timeoutMs: shutdownTimeoutMs }, 'gRPC calls still running at shutdown; cancelling them');
          server.forceShutdown();
          resolve();
        }, shutdownTimeoutMs);
        timer.unref();
        server.tryShutdown((error) => {
          clearTimeout(timer);
          if (error) {
            logger.warn({ err: error }, 'graceful gRPC shutdown failed; forcing');
            server.forceShutdown();
          }
          resolve();
        });
      });
      return stopping;
    },
  };
}
