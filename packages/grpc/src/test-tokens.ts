import { createHmac } from 'node:crypto';
import type { identityV1 } from '@stormhook/proto';
import { InternalTokenSigner } from './internal-token.js';
import { InternalTokens } from './internal-tokens.js';
import { localInternalKeys, randomInternalKey, type InternalKeyEnv } from './local-keys.js';
import { newPrincipalKeyPair } from './principal-keys.js';

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
 * The internal keys of this test process: the ones the test runner set in the environment, else
 * fresh ones stored there (as @stormhook/testing's testInfra does), so services and clients agree.
 */
export function testInternalKeys(env: NodeJS.ProcessEnv = process.env): InternalKeyEnv {
  const keys = localInternalKeys(env);
  Object.assign(env, keys);
  return keys;
}

/** Test clients' tokens, playing the gateway (or `issuer`) with this process's keys. */
export function testInternalTokens(issuer = 'gateway', keys: InternalKeyEnv = testInternalKeys()): InternalTokens {
  return new InternalTokens({ key: keys.INTERNAL_TOKEN_KEY, principalKey: keys.INTERNAL_PRINCIPAL_SIGNING_KEY, issuer });
}

/**
 * A principal token signed with the shared service key, as any pod that holds INTERNAL_TOKEN_KEY can
 * write one (the signer refuses to, so it is put together by hand, the way a forger would).
 */
export function serviceSignedPrincipalToken(key: string, issuer: string, audience: string, principal: identityV1.Principal, nowMs = Date.now()): string {
  const claims = {
    iss: issuer,
    aud: audience,
    iat: nowMs,
    exp: nowMs + 60_000,
    p: [principal.userId, principal.accountId, principal.role, principal.username, principal.via],
  };
  const signed = `v1.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${signed}.${createHmac('sha256', Buffer.from(key, 'utf8')).update(signed).digest('base64url')}`;
}

/** Ways a call can fail to prove its caller, each as a client's `internalToken` option. */
export function untrustedTokens(audience: string, keys: InternalKeyEnv = testInternalKeys()): Record<string, (() => string) | undefined> {
  const admin: identityV1.Principal = {
    userId: '00000000-0000-4000-8000-0000000000ad',
    accountId: '',
    role: 'ADMIN',
    username: 'intruder@example.com',
    via: 'access-token',
  };
  const key = keys.INTERNAL_TOKEN_KEY;
  const otherKeys = new InternalTokens({ key: randomInternalKey(), principalKey: newPrincipalKeyPair().signingKey, issuer: 'gateway' });
  const expired = new InternalTokenSigner({
    key,
    principalKey: keys.INTERNAL_PRINCIPAL_SIGNING_KEY,
    issuer: 'gateway',
    now: () => Date.now() - 10 * 60_000,
  }).sign(audience, admin).token;
  const elsewhere = testInternalTokens('gateway', keys);
  // Ingest calls no service (see edges.ts): whatever it signs, no server takes.
  const ingest = new InternalTokens({ key, issuer: 'ingest' });
  return {
    'no token': undefined,
    'a token signed with other keys': () => otherKeys.forPrincipal(audience, admin),
    'an expired token': () => expired,
    'a token for another service': () => elsewhere.forPrincipal(audience === 'geo' ? 'query' : 'geo', admin),
    // What a compromised pod could mint with the shared key: a customer, in the gateway's name.
    'a principal token signed with the shared service key': () => serviceSignedPrincipalToken(key, 'gateway', audience, admin),
    'a service token from a service that may not call this one': () => ingest.forService(audience),
  };
}
