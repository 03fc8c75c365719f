import { grpcHealthV1 } from '@stormhook/proto';
import { createClient } from './client.js';
import { GrpcError, GrpcStatus } from './errors.js';

export type HealthState = 'SERVING' | 'NOT_SERVING' | 'UNKNOWN' | 'UNREACHABLE';

/**
 * Asks the standard health service at `address`, the way a probe does: a short deadline, no trace,
 * over one channel kept for every check, so a caller that checks often (the gateway's /v1/health)
 * does not open a connection per check. UNREACHABLE when nothing answered in time; UNKNOWN when
 * something answered but not with a status (unknown service, no health service).
 */
export class HealthChecker {
  private readonly client;

  constructor(
    readonly address: string,
    options: { timeoutMs?: number } = {},
  ) {
    this.client = createClient(grpcHealthV1.HealthService, address, { deadlineMs: options.timeoutMs ?? 1000, trace: false });
  }

  /** The state of `service` ('' = the whole server). */
  async check(service = ''): Promise<HealthState> {
    try {
      const { status } = await this.client.check({ service });
      return status === 'SERVING' || status === 'NOT_SERVING' ? status : 'UNKNOWN';
    } catch (error) {
      const unreachable = error instanceof GrpcError && (error.code === GrpcStatus.UNAVAILABLE || error.code === GrpcStatus.DEADLINE_EXCEEDED);
      return unreachable ? 'UNREACHABLE' : 'UNKNOWN';
    }
  }

  close(): void {
    this.client.close();
  }
}

/** One check over a channel of its own, closed after it: for a one-off probe (start-up waits, tests). */
export async function checkHealth(address: string, service = '', options: { timeoutMs?: number } = {}): Promise<HealthState> {
  const checker = new HealthChecker(address, options);
  try {
    return await checker.check(service);
  } finally {
    checker.close();
  }
}
