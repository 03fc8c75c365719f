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
import { newServiceKeyPair } from './service-keys.js';
import { ProbeService, startProbeServer } from './test-support.js';
import { forgedToken, sharedKeyToken } from './test-tokens.js';

const GATEWAY_KEYS = newServiceKeyPair();
const MATCHER_KEYS = newServiceKeyPair();
const QUERY_KEYS = newServiceKeyPair();
/** The gateway's signer: its own key, for its own calls and a customer's. */
const gatewayTokens = () => new InternalTokens({ key: GATEWAY_KEYS.signingKey, issuer: 'gateway' });
const matcherTokens = () => new InternalTokens({ key: MATCHER_KEYS.signingKey, issuer: 'alarm-matcher' });
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
    // The probe is called by the gateway and the alarm-matcher, as the notifier is in the edge table.
    // Query's public key is known too (it calls geo), but it is no caller of the probe.
    const publicKeys = { gateway: GATEWAY_KEYS.publicKey, 'alarm-matcher': MATCHER_KEYS.publicKey, query: QUERY_KEYS.publicKey };
    const verifier = new InternalTokenVerifier({ publicKeys, audience: 'probe', callers: ['gateway', 'alarm-matcher'] });
    ({ server, address } = await startProbeServer(handlers, undefined, verifier));
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
    const tokens = gatewayTokens();
    await callWith(() => tokens.forPrincipal('probe', alice));
    assert.deepEqual(seen, { service: 'gateway', userId: 'u-alice' });
    await callWith(tokens.serviceTokenFor('probe'));
    assert.deepEqual(seen, { service: 'gateway', userId: undefined });
    await callWith(matcherTokens().serviceTokenFor('probe'));
    assert.deepEqual(seen, { service: 'alarm-matcher', userId: undefined });
  });

  it("refuses a token signed with another calling service's key in the gateway's or the alarm-matcher's name", async () => {
    // What a compromised query pod could mint with the key it holds: someone else's name, with or without a customer.
    for (const iss of ['gateway', 'alarm-matcher']) {
      await refusedWith(GrpcStatus.UNAUTHENTICATED, () => forgedToken(QUERY_KEYS.signingKey, { iss, aud: 'probe' }));
      await refusedWith(GrpcStatus.UNAUTHENTICATED, () => forgedToken(QUERY_KEYS.signingKey, { iss, aud: 'probe', principal: { ...alice, role: 'ADMIN' } }));
    }
  });

  it('refuses a principal in a token from a caller other than the gateway', async () => {
    await refusedWith(GrpcStatus.UNAUTHENTICATED, () => forgedToken(MATCHER_KEYS.signingKey, { iss: 'alarm-matcher', aud: 'probe', principal: alice }));
  });

  it('refuses a token whose issuer may not call this service, though its key is valid', async () => {
    await refusedWith(GrpcStatus.UNAUTHENTICATED, new InternalTokens({ key: QUERY_KEYS.signingKey, issuer: 'query' }).serviceTokenFor('probe'));
    await refusedWith(GrpcStatus.UNAUTHENTICATED, new InternalTokens({ key: newServiceKeyPair().signingKey, issuer: 'ingest' }).serviceTokenFor('probe'));
  });

  it('refuses a token in the retired shared-key form', async () => {
    await refusedWith(GrpcStatus.UNAUTHENTICATED, () => sharedKeyToken('k'.repeat(40), { iss: 'gateway', aud: 'probe', principal: alice }));
    await refusedWith(GrpcStatus.UNAUTHENTICATED, () => sharedKeyToken('k'.repeat(40), { iss: 'alarm-matcher', aud: 'probe' }));
  });

  it('refuses a call without a token', async () => {
    await refusedWith(GrpcStatus.UNAUTHENTICATED, undefined);
  });

  it('refuses a token signed with another key', async () => {
    const forger = new InternalTokens({ key: newServiceKeyPair().signingKey, issuer: 'gateway' });
    await refusedWith(GrpcStatus.UNAUTHENTICATED, () => forger.forPrincipal('probe', { ...alice, role: 'ADMIN' }));
    await refusedWith(GrpcStatus.UNAUTHENTICATED, forger.serviceTokenFor('probe'));
  });

  it('refuses an expired token and one for another service', async () => {
    const expired = new InternalTokenSigner({ key: GATEWAY_KEYS.signingKey, issuer: 'gateway', now: () => Date.now() - 120_000 }).sign('probe', alice).token;
    await refusedWith(GrpcStatus.UNAUTHENTICATED, () => expired);
    const forGeo = gatewayTokens();
    await refusedWith(GrpcStatus.UNAUTHENTICATED, () => forGeo.forPrincipal('geo', alice));
  });

  it('refuses a request that names another principal than its token (PERMISSION_DENIED)', async () => {
    const tokens = gatewayTokens();
    await assert.rejects(
      callWith(() => tokens.forPrincipal('probe', alice), 1),
      (error: unknown) => error instanceof GrpcError && error.code === GrpcStatus.PERMISSION_DENIED,
    );
  });

  it('answers health checks without a token (probes hold no key)', async () => {
    assert.equal(await checkHealth(address), 'SERVING');
  });
});
