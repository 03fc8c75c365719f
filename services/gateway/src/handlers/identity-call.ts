import type { Request, Response } from 'express';
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

/**
 * The caller's network address for per-address login limits: the socket's peer, or with
 * `trustedProxyHops` > 0 the address that many proxies in front of us saw (X-Forwarded-For read
 * from the right, so a client cannot choose its own address by adding entries on the left).
 */
export function clientAddress(req: Request, trustedProxyHops: number): string {
  const peer = req.socket.remoteAddress ?? '';
  if (trustedProxyHops <= 0) return peer;
  const forwarded = req.headers['x-forwarded-for'];
  const chain = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return chain[chain.length - trustedProxyHops] ?? chain[0] ?? peer;
}
