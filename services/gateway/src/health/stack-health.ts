import { HealthChecker } from '@stormhook/grpc';
import type { DependencyCheck } from '@stormhook/service-kit';
import type { ComponentHealth, HealthPort, HealthReport } from './health-port.js';

export interface StackHealthOptions {
  /** gRPC address of each backing service, by name. */
  services: Record<string, string>;
  /** The gateway's own dependencies (Kafka, the database). */
  dependencies: Record<string, DependencyCheck>;
  timeoutMs?: number;
}

/** The stack's health, and the channels it keeps open to ask it. */
export interface StackHealth extends HealthPort {
  close(): void;
}

/**
 * The health of the whole product as the gateway sees it: the standard gRPC health answer of each
 * service (which itself follows that service's Kafka and database), plus the gateway's own Kafka
 * and database. All probes run in parallel, each bounded, so a hung service cannot hang /v1/health.
 * One gRPC channel per service, made here and reused by every check: /v1/health is public, and a
 * channel per call (six connections per request) let anyone make the gateway open sockets at will.
 */
export function stackHealth(opts: StackHealthOptions): StackHealth {
  const timeoutMs = opts.timeoutMs ?? 2_000;
  const checkers = Object.entries(opts.services).map(([name, address]) => [name, new HealthChecker(address, { timeoutMs })] as const);
  return {
    async check(): Promise<HealthReport> {
      const probes: Array<Promise<[string, ComponentHealth]>> = [
        ...checkers.map(async ([name, checker]): Promise<[string, ComponentHealth]> => {
          const state = await checker.check();
          return [name, state === 'SERVING' ? { status: 'up' } : { status: 'down', detail: `${state} at ${checker.address}` }];
        }),
        ...Object.entries(opts.dependencies).map(async ([name, probe]): Promise<[string, ComponentHealth]> => {
          const ok = await probe().catch(() => false);
          return [name, ok ? { status: 'up' } : { status: 'down', detail: 'not answering' }];
        }),
      ];
      const components = Object.fromEntries(await Promise.all(probes));
      const status = Object.values(components).every((c) => c.status === 'up') ? 'up' : 'down';
      return { status, components };
    },
    close() {
      for (const [, checker] of checkers) checker.close();
    },
  };
}
