import assert from 'node:assert/strict';
import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import type { identityV1 } from '@stormhook/proto';
import { ApiKeyCache, type ApiKeyPort } from './auth-api-keys.js';

/** Identity that knows a few keys ("key-<id>") and refuses everything else as UNAUTHENTICATED. */
class FakeIdentity implements ApiKeyPort {
  readonly asked: string[] = [];
  readonly keys = new Map<string, { keyId: string; expiresAtEpochMs?: number }>();

  async verifyApiKey(request: identityV1.VerifyApiKeyRequest): Promise<identityV1.VerifyApiKeyResponse> {
    this.asked.push(request.apiKey);
    const known = this.keys.get(request.apiKey);
    if (!known) throw new GrpcError(GrpcStatus.UNAUTHENTICATED, 'Invalid API key');
    return {
      principal: { userId: `user-of-${known.keyId}`, accountId: '', role: 'API_USER', username: 'bot@example.com', via: 'api-key' },
      keyId: known.keyId,
      ...(known.expiresAtEpochMs !== undefined ? { expiresAtEpochMs: known.expiresAtEpochMs } : {}),
    };
  }
}

describe('ApiKeyCache', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('a flood of unknown keys cannot push valid keys out of the cache', async () => {
    const identity = new FakeIdentity();
    const cache = new ApiKeyCache(identity, { maxEntries: 10, maxNegativeEntries: 10, now });
    for (let i = 0; i < 10; i++) identity.keys.set(`key-${i}`, { keyId: `k${i}` });
    for (let i = 0; i < 10; i++) assert.equal((await cache.verify(`key-${i}`))?.keyId, `k${i}`);
    for (let i = 0; i < 1_000; i++) assert.equal(await cache.verify(`random-${i}`), undefined);
    const before = identity.asked.length;
    for (let i = 0; i < 10; i++) assert.equal((await cache.verify(`key-${i}`))?.keyId, `k${i}`);
    assert.equal(identity.asked.length, before, 'every valid key was still answered from memory');
    assert.deepEqual(cache.sizes, { verified: 10, unknown: 10 });
  });

  it('remembers an unknown key briefly, so guessing the same key again does not reach identity', async () => {
    const identity = new FakeIdentity();
    const cache = new ApiKeyCache(identity, { negativeTtlMs: 5_000, now });
    await cache.verify('nope');
    await cache.verify('nope');
    assert.equal(identity.asked.length, 1);
    clock += 5_000;
    await cache.verify('nope');
    assert.equal(identity.asked.length, 2);
  });

  it('trusts a key for ttlMs, evicts it at once on revocation, and never past its own expiry', async () => {
    const identity = new FakeIdentity();
    const cache = new ApiKeyCache(identity, { ttlMs: 30_000, now });
    identity.keys.set('key-a', { keyId: 'ka' });
    identity.keys.set('key-b', { keyId: 'kb', expiresAtEpochMs: clock + 1_000 });
    await cache.verify('key-a');
    await cache.verify('key-b');

    identity.keys.delete('key-a'); // revoked at identity
    assert.ok(await cache.verify('key-a'), 'still trusted without the event');
    cache.evictKey('ka'); // the revocation event
    assert.equal(await cache.verify('key-a'), undefined);

    clock += 999;
    assert.ok(await cache.verify('key-b'));
    identity.keys.delete('key-b');
    clock += 1;
    assert.equal(await cache.verify('key-b'), undefined, 'expired keys are asked about again');
  });

  it('verifies a key in use again shortly before its trust ends, without making its requests wait', async () => {
    const identity = new FakeIdentity();
    const cache = new ApiKeyCache(identity, { ttlMs: 30_000, refreshAheadMs: 5_000, now });
    identity.keys.set('key-a', { keyId: 'ka' });
    await cache.verify('key-a');
    clock += 24_999;
    await cache.verify('key-a');
    assert.equal(identity.asked.length, 1, 'no refresh while the key is fresh');
    clock += 1;
    identity.keys.delete('key-a'); // revoked; its event is lost
    assert.ok(await cache.verify('key-a'), 'answered from memory while the refresh runs');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(identity.asked.length, 2, 'one refresh');
    assert.equal(await cache.verify('key-a'), undefined, 'the refresh found the key revoked');
  });

  it('asks identity once for concurrent requests with the same key, and does not keep an answer a revocation overtook', async () => {
    const identity = new FakeIdentity();
    const cache = new ApiKeyCache(identity, { now });
    identity.keys.set('key-a', { keyId: 'ka' });
    const waiting = Array.from({ length: 10 }, () => cache.verify('key-a'));
    cache.evictKey('ka'); // the revocation event arrives while identity's (older) answer is on its way
    assert.ok((await Promise.all(waiting)).every((k) => k?.keyId === 'ka'));
    assert.equal(identity.asked.length, 1);
    identity.keys.delete('key-a');
    assert.equal(await cache.verify('key-a'), undefined, 'asked again, not answered from the overtaken call');
    assert.equal(identity.asked.length, 2);
  });

  it('does not cache a failure of identity itself', async () => {
    let down = true;
    const cache = new ApiKeyCache(
      {
        verifyApiKey: async () => {
          if (down) throw new GrpcError(GrpcStatus.UNAVAILABLE, 'identity down');
          return { principal: { userId: 'u', accountId: '', role: 'API_USER', username: 'b', via: 'api-key' }, keyId: 'k' };
        },
      },
      { now },
    );
    await assert.rejects(cache.verify('key'), /identity down/);
    down = false;
    assert.equal((await cache.verify('key'))?.keyId, 'k');
  });
});
