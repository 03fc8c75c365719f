import { grpcHealthV1 } from '@stormhook/proto';
import { createClient } from './client.js';
import { GrpcError, GrpcStatus } from './errors.js';

export type HealthState = 'SERVING' | 'NOT_SERVING' | 'UNKNOWN' | 'UNREACHABLE';

/**
 * Asks the standard health service at `address` about `service` ('' = the whole server), the way a
 * probe does: a short deadline, no trace. UNREACHABLE when nothing answered in time; UNKNOWN when
 * something answered but not with a status (unknown service, no health service).
 */
export async function checkHealth(address: string, service = '', options: { timeoutMs?: number } = {}): Promise<HealthState> {
  const client = createClient(grpcHealthV1.HealthService, address, { deadlineMs: options.timeoutMs ?? 1000, trace: false });
  try {
    const { status } = await client.check({ service });
    return status === 'SERVING' || status === 'NOT_SERVING' ? status : 'UNKNOWN';
  } catch (error) {
    const unreachable = error instanceof GrpcError && (error.code === GrpcStatus.UNAVAILABLE || error.code === GrpcStatus.DEADLINE_EXCEEDED);
    return unreachable ? 'UNREACHABLE' : 'UNKNOWN';
  } finally {
    client.close();
  }
}
