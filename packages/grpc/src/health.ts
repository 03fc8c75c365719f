import { grpcHealthV1 } from '@stormhook/proto';
import { GrpcError, GrpcStatus } from './errors.js';
import type { ServerCall } from './server-call.js';

type ServingStatus = grpcHealthV1.HealthCheckResponse_ServingStatus;

/** The statuses a service sets; UNKNOWN and SERVICE_UNKNOWN are what the protocol reports, never set. */
export type SettableStatus = 'SERVING' | 'NOT_SERVING';

/** The health statuses one server reports; `''` is the server as a whole. */
export interface Health {
  setStatus(service: string, status: SettableStatus): void;
  /** The status last set, or undefined for a service never registered. */
  getStatus(service: string): SettableStatus | undefined;
}

/**
 * Statuses plus change notification for Watch. Every change bumps `version`; a watcher compares
 * versions rather than waiting for "the next change", so a change made while it was busy writing
 * is never missed. Watch reports the latest status: a flip and flip back between two looks is
 * coalesced away, as the protocol allows.
 */
export class HealthRegistry implements Health {
  private readonly statuses = new Map<string, SettableStatus>();
  private version = 0;
  private closed = false;
  private waiters = new Set<() => void>();

  setStatus(service: string, status: SettableStatus): void {
    if (this.closed) return; // after shutdown everything stays NOT_SERVING
    if (this.statuses.get(service) === status) return;
    this.statuses.set(service, status);
    this.bump();
  }

  getStatus(service: string): SettableStatus | undefined {
    return this.statuses.get(service);
  }

  list(): Record<string, SettableStatus> {
    return Object.fromEntries([...this.statuses].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** Marks everything NOT_SERVING and ends every Watch after it has sent that last status. */
  close(): void {
    for (const service of this.statuses.keys()) this.statuses.set(service, 'NOT_SERVING');
    this.closed = true;
    this.bump();
  }

  /** The status of `service` now and after every change, until `signal` aborts or the registry closes. */
  async *watch(service: string, signal: AbortSignal): AsyncGenerator<ServingStatus> {
    let seen = -1;
    let last: ServingStatus | undefined;
    for (;;) {
      if (seen !== this.version) {
        seen = this.version;
        const current: ServingStatus = this.statuses.get(service) ?? 'SERVICE_UNKNOWN';
        if (current !== last) {
          last = current;
          yield current;
        }
        continue;
      }
      if (signal.aborted || this.closed) return;
      await this.nextChange(signal);
    }
  }

  private bump(): void {
    this.version++;
    const waiters = this.waiters;
    this.waiters = new Set();
    for (const wake of waiters) wake();
  }

  private nextChange(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        this.waiters.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      this.waiters.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }
}

/**
 * The standard grpc.health.v1.Health service over a registry. Typed with the generated handler
 * interface (rather than HandlersOf) so the compiler proves the two agree.
 */
export function healthHandlers(registry: HealthRegistry): grpcHealthV1.HealthServiceHandlers<ServerCall> {
  return {
    async check({ service }) {
      const status = registry.getStatus(service);
      if (!status) throw new GrpcError(GrpcStatus.NOT_FOUND, `unknown service '${service}'`);
      return { status };
    },
    async list() {
      const statuses: Record<string, grpcHealthV1.HealthCheckResponse> = {};
      for (const [service, status] of Object.entries(registry.list())) statuses[service] = { status };
      return { statuses };
    },
    async *watch({ service }, call) {
      for await (const status of registry.watch(service, call.signal)) yield { status };
    },
  };
}
