import { randomBytes } from 'node:crypto';
import type { identityV1 } from '@stormhook/proto';
import { InternalTokenSigner } from './internal-token.js';
import { InternalTokens } from './internal-tokens.js';

/** A fresh random internal key (what the local stack and the test runner generate). */
export function randomInternalKey(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * For tests that call a service directly, playing the gateway: the token carries the principal the
 * request names in `actor` or `principal` (a service token when it names none). Never used by a
 * service: the gateway takes the principal from its own authenticated request, not from a message.
 */
export function tokenOfRequestPrincipal(tokens: InternalTokens, audience: string): (request: unknown) => string {
  return (request) => {
    const message = (request ?? {}) as { actor?: identityV1.Principal | null; principal?: identityV1.Principal | null };
    const principal = message.actor ?? message.principal;
    return principal?.userId ? tokens.forPrincipal(audience, principal) : tokens.forService(audience);
  };
}

/**
 * Test clients' tokens, with INTERNAL_TOKEN_KEY as the test runner sets it (else one generated and
 * stored there, as @stormhook/testing's testInternalKey does, so services and clients agree).
 */
export function testInternalTokens(key?: string, issuer = 'gateway'): InternalTokens {
  process.env['INTERNAL_TOKEN_KEY'] ||= randomInternalKey();
  return new InternalTokens({ key: key ?? process.env['INTERNAL_TOKEN_KEY'], issuer });
}

/** Ways a call can fail to prove its caller, each as a client's `internalToken` option. */
export function untrustedTokens(
  audience: string,
  key: string = process.env['INTERNAL_TOKEN_KEY'] ?? randomInternalKey(),
): Record<string, (() => string) | undefined> {
  const admin: identityV1.Principal = {
    userId: '00000000-0000-4000-8000-0000000000ad',
    accountId: '',
    role: 'ADMIN',
    username: 'intruder@example.com',
    via: 'access-token',
  };
  const otherKey = new InternalTokens({ key: randomInternalKey(), issuer: 'gateway' });
  const expired = new InternalTokenSigner({ key, issuer: 'gateway', now: () => Date.now() - 10 * 60_000 }).sign(audience, admin).token;
  const elsewhere = new InternalTokens({ key, issuer: 'gateway' });
  return {
    'no token': undefined,
    'a token signed with another key': () => otherKey.forPrincipal(audience, admin),
    'an expired token': () => expired,
    'a token for another service': () => elsewhere.forPrincipal(audience === 'geo' ? 'query' : 'geo', admin),
  };
}
