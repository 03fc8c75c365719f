// What the internal gRPC tokens add per request: the gateway's side (async context of the handler,
// the cached token of the request's principal, the metadata entry) and a server's verification
// (a cached token: a map lookup; a new one: an Ed25519 signature and its check, since every service
// signs its tokens with its own key). `npm run bench` runs it with the others.
import type { Request, Response } from 'express';
import { callersOf, InternalTokens, InternalTokenVerifier, localInternalKeys, parsePublicKeys, signingKeyVariable } from '@stormhook/grpc';
import type { identityV1 } from '@stormhook/proto';
import { reportBench } from '@stormhook/testing';
import { setAuthState } from '../http/auth-state.js';
import { actingForCaller, internalTokenFor } from '../http/internal-caller.js';

const ROUNDS = 200_000;
const USERS = 1_000;
const keys = localInternalKeys({});
const signing = { key: keys[signingKeyVariable('gateway')]!, issuer: 'gateway' };
const verifying = { publicKeys: parsePublicKeys(keys.INTERNAL_PUBLIC_KEYS), audience: 'identity', callers: callersOf('identity') };
const tokens = new InternalTokens(signing);
const tokenForIdentity = internalTokenFor(tokens, 'identity');
const verifier = new InternalTokenVerifier(verifying);

const principals: identityV1.Principal[] = Array.from({ length: USERS }, (_, i) => ({
  userId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  accountId: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  role: 'API_USER',
  username: `user${i}@example.com`,
  via: 'access-token',
}));
const requests = principals.map((principal) => {
  const req = {} as Request;
  setAuthState(req, { principal });
  return req;
});

let sink = 0;
// One request: the handler runs in the principal's context and makes one gRPC call, which reads the
// cached token (the client then adds one metadata entry); the server verifies it.
const handler = actingForCaller(async () => {
  const outcome = verifier.verify(tokenForIdentity());
  if (outcome.ok) sink++;
});

async function perRequestMicros(rounds: number): Promise<number> {
  const res = {} as Response;
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) await handler(requests[i % USERS]!, res, () => undefined);
  return Number(process.hrtime.bigint() - start) / 1000 / rounds;
}

function coldMicros(rounds: number): number {
  const signer = new InternalTokens({ ...signing, maxCached: 1 });
  const cold = new InternalTokenVerifier({ ...verifying, cacheSize: 1 });
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) {
    const token = signer.forPrincipal('identity', principals[i % USERS]!);
    if (cold.verify(token).ok) sink++;
  }
  return Number(process.hrtime.bigint() - start) / 1000 / rounds;
}

await perRequestMicros(20_000); // warm-up: tokens signed, caches filled, code optimised
const warm = await perRequestMicros(ROUNDS);
const cold = coldMicros(ROUNDS / 10);
if (sink === 0) throw new Error('nothing verified');
reportBench({
  bench: 'internal-token',
  metric: 'per request (context + cached token + cached verify)',
  value: warm,
  unit: 'us',
  note: `${USERS} principals, ${ROUNDS} requests`,
});
reportBench({ bench: 'internal-token', metric: 'cache miss (sign + verify with Ed25519)', value: cold, unit: 'us', note: 'once per principal and minute' });
console.log(`per request ${warm.toFixed(2)} us; cold sign+verify ${cold.toFixed(2)} us`);
