import assert from 'node:assert/strict';
import type { identityV1 } from '@stormhook/proto';
import { checkHealth } from './check-health.js';
import { createClient } from './client.js';
import { GrpcError, GrpcStatus } from './errors.js';
import type { HandlersOf } from './handlers.js';
import { InternalTokenSigner, InternalTokenVerifier } from './internal-token.js';
import { InternalTokens } from './internal-tokens.js';
import { actingPrincipal } from './server-auth.js';
import type { GrpcServer } from './server.js';
import { ProbeService, startProbeServer } from './test-support.js';

const KEY = 'k'.repeat(40);
const alice: identityV1.Principal = { userId: 'u-alice', accountId: 'a-1', role: 'API_USER', username: 'alice@example.com', via: 'access-token' };

describe('gRPC servers verify the internal token of every call', () => {
  let server: GrpcServer;
  let address: string;
  let seen: { service: string | undefined; userId: string | undefined } | undefined;

  const handlers: HandlersOf<typeof ProbeService> = {
    async echo(point, call) {
      // lng 1: the request "names" bob as its actor; the handler asks for the acting principal.
      const principal = actingPrincipal(call, point.lng === 1 ? { userId: 'u-bob' } : undefined);
      seen = { service: call.caller?.service, userId: principal?.userId };
      return point;
    },
    async fail() {
      throw new GrpcError(GrpcStatus.INTERNAL, 'unused');
    },
    async *points() {},
    async collect() {
      return { points: [] };
    },
    async *mirror(points) {
      yield* points;
    },
  };

  before(async () => {
    ({ server, address } = await startProbeServer(handlers, undefined, new InternalTokenVerifier({ key: KEY, audience: 'probe' })));
  });
  after(() => server.shutdown());
  beforeEach(() => {
    seen = undefined;
  });

  const callWith = async (internalToken: (() => string | undefined) | undefined, lng = 0) => {
    const client = createClient(ProbeService, address, { trace: false, ...(internalToken ? { internalToken } : {}) });
    try {
      return await client.echo({ lng, lat: 2 });
    } finally {
      client.close();
    }
  };

  const refusedWith = async (code: GrpcStatus, internalToken: (() => string | undefined) | undefined, lng = 0) => {
    await assert.rejects(callWith(internalToken, lng), (error: unknown) => error instanceof GrpcError && error.code === code);
    assert.equal(seen, undefined, 'the handler never ran');
  };

  it('serves a call with a valid token, the caller taken from the token', async () => {
    const tokens = new InternalTokens({ key: KEY, issuer: 'gateway' });
    await callWith(() => tokens.forPrincipal('probe', alice));
    assert.deepEqual(seen, { service: 'gateway', userId: 'u-alice' });
    await callWith(tokens.serviceTokenFor('probe'));
    assert.deepEqual(seen, { service: 'gateway', userId: undefined });
  });

  it('refuses a call without a token', async () => {
    await refusedWith(GrpcStatus.UNAUTHENTICATED, undefined);
  });

  it('refuses a token signed with another key', async () => {
    const forger = new InternalTokens({ key: 'f'.repeat(40), issuer: 'gateway' });
    await refusedWith(GrpcStatus.UNAUTHENTICATED, () => forger.forPrincipal('probe', { ...alice, role: 'ADMIN' }));
  });

  it('refuses an expired token and one for another service', async () => {
    const expired = new InternalTokenSigner({ key: KEY, issuer: 'gateway', now: () => Date.now() - 120_000 }).sign('probe', alice).token;
    await refusedWith(GrpcStatus.UNAUTHENTICATED, () => expired);
    const forGeo = new InternalTokens({ key: KEY, issuer: 'gateway' });
    await refusedWith(GrpcStatus.UNAUTHENTICATED, () => forGeo.forPrincipal('geo', alice));
  });

  it('refuses a request that names another principal than its token (PERMISSION_DENIED)', async () => {
    const tokens = new InternalTokens({ key: KEY, issuer: 'gateway' });
    await assert.rejects(
      callWith(() => tokens.forPrincipal('probe', alice), 1),
      (error: unknown) => error instanceof GrpcError && error.code === GrpcStatus.PERMISSION_DENIED,
    );
  });

  it('answers health checks without a token (probes hold no key)', async () => {
    assert.equal(await checkHealth(address), 'SERVING');
  });
});
