import { createHmac } from 'node:crypto';
import type { identityV1 } from '@stormhook/proto';
import { callersOf, GRPC_SERVICES, type GrpcServiceName } from './edges.js';
import { InternalTokenSigner, PRINCIPAL_ISSUER, signClaims } from './internal-token.js';
import { InternalTokens } from './internal-tokens.js';
import { localInternalKeys, type InternalKeyEnv } from './local-keys.js';
import { newServiceKeyPair, serviceSigningKey, signingKeyVariable } from './service-keys.js';

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
 * A test process plays every service, so it holds every calling service's key.
 */
export function testInternalKeys(env: NodeJS.ProcessEnv = process.env): InternalKeyEnv {
  const keys = localInternalKeys(env);
  Object.assign(env, keys);
  return keys;
}

/** The private key of a calling service in this run's keys (throws for a service that calls none). */
function signingKeyIn(keys: InternalKeyEnv, service: string): string {
  const key = keys[signingKeyVariable(service)];
  if (key === undefined) throw new Error(`${service} calls no service, so the run holds no signing key of it`);
  return key;
}

/** Test clients' tokens, playing the gateway (or `issuer`, a calling service) with this process's keys. */
export function testInternalTokens(issuer = PRINCIPAL_ISSUER, keys: InternalKeyEnv = testInternalKeys()): InternalTokens {
  return new InternalTokens({ key: signingKeyIn(keys, issuer), issuer });
}

interface ForgedClaims {
  iss: string;
  aud: string;
  principal?: identityV1.Principal;
  nowMs?: number;
}

const claimsOf = ({ iss, aud, principal, nowMs = Date.now() }: ForgedClaims) => ({
  iss,
  aud,
  iat: nowMs,
  exp: nowMs + 60_000,
  ...(principal ? { p: [principal.userId, principal.accountId, principal.role, principal.username, principal.via] } : {}),
});

/**
 * A token with any claims, signed with `signingKey` (PKCS#8 PEM): what a pod holding that key could
 * write, whatever the signer would refuse (another issuer's name, a principal from a non-gateway).
 */
export function forgedToken(signingKey: string, claims: ForgedClaims): string {
  return signClaims(claimsOf(claims), serviceSigningKey(signingKey));
}

/** A token in the retired form: HMAC-SHA256 with a shared key (`v1.`), as every pod could once sign. */
export function sharedKeyToken(sharedKey: string, claims: ForgedClaims): string {
  const signed = `v1.${Buffer.from(JSON.stringify(claimsOf(claims))).toString('base64url')}`;
  return `${signed}.${createHmac('sha256', Buffer.from(sharedKey, 'utf8')).update(signed).digest('base64url')}`;
}

/** Ways a call can fail to prove its caller, each as a client's `internalToken` option. */
export function untrustedTokens(audience: GrpcServiceName, keys: InternalKeyEnv = testInternalKeys()): Record<string, (() => string) | undefined> {
  const admin: identityV1.Principal = {
    userId: '00000000-0000-4000-8000-0000000000ad',
    accountId: '',
    role: 'ADMIN',
    username: 'intruder@example.com',
    via: 'access-token',
  };
  const otherKeys = new InternalTokens({ key: newServiceKeyPair().signingKey, issuer: PRINCIPAL_ISSUER });
  const expired = new InternalTokenSigner({ key: signingKeyIn(keys, PRINCIPAL_ISSUER), issuer: PRINCIPAL_ISSUER, now: () => Date.now() - 10 * 60_000 }).sign(
    audience,
    admin,
  ).token;
  const elsewhere = testInternalTokens(PRINCIPAL_ISSUER, keys);
  // Another calling service's real key: a caller of this service other than the gateway when it has one.
  const otherCaller = callersOf(audience).find((caller) => caller !== PRINCIPAL_ISSUER) ?? 'alarm-matcher';
  const otherKey = signingKeyIn(keys, otherCaller);
  // Ingest calls no service (see edges.ts): whatever it signs, with a key of its own, no server takes.
  const ingest = newServiceKeyPair().signingKey;
  return {
    'no token': undefined,
    'a token signed with other keys': () => otherKeys.forPrincipal(audience, admin),
    'an expired token': () => expired,
    'a token for another service': () =>
      elsewhere.forPrincipal(
        GRPC_SERVICES.find((s) => s !== audience)!,
        admin,
      ),
    // What a compromised pod of another calling service could mint: the gateway's name and a customer.
    [`a token in the gateway's name signed with ${otherCaller}'s key`]: () => forgedToken(otherKey, { iss: PRINCIPAL_ISSUER, aud: audience, principal: admin }),
    [`a principal token from ${otherCaller}, signed with its own key`]: () => forgedToken(otherKey, { iss: otherCaller, aud: audience, principal: admin }),
    'a token in the retired shared-key form': () => sharedKeyToken('k'.repeat(32), { iss: PRINCIPAL_ISSUER, aud: audience, principal: admin }),
    'a service token from a service that may not call this one': () => forgedToken(ingest, { iss: 'ingest', aud: audience }),
  };
}
