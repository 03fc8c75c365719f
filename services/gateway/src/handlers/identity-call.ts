import type { Response } from 'express';
import { GrpcError, type GrpcClient } from '@stormhook/grpc';
import type { identityV1 } from '@stormhook/proto';

export type IdentityClient = GrpcClient<typeof identityV1.IdentityService>;

/**
 * Runs a call to identity; when identity refuses it for too many attempts, the answer gets
 * Retry-After from the detail's retry_after_ms before the error handler writes the 429.
 */
export async function callIdentity<T>(res: Response, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const retryAfterMs = error instanceof GrpcError ? error.detail?.retryAfterMs : undefined;
    if (retryAfterMs !== undefined && retryAfterMs > 0) res.set('Retry-After', String(Math.ceil(retryAfterMs / 1000)));
    throw error;
  }
}
