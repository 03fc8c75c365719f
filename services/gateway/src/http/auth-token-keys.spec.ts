import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { createLogger } from '@stormhook/logger';
import type { identityV1 } from '@stormhook/proto';
import { TokenKeySource, type TokenKeysPort } from './auth-token-keys.js';

const pem = () => generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }).toString();

/** Identity's GetTokenKeys, scripted: down until `keys` is set. */
class FakeIdentity implements TokenKeysPort {
  calls = 0;
  keys: identityV1.GetTokenKeysResponse['keys'] | undefined;
  async getTokenKeys(): Promise<identityV1.GetTokenKeysResponse> {
    this.calls++;
    if (!this.keys) throw new Error('UNAVAILABLE');
    return { algorithm: 'EdDSA', issuer: 'i', audience: 'a', keys: this.keys };
  }
}

describe('TokenKeySource', () => {
  const logger = createLogger({ service: 'spec', level: 'silent' });

  it('starts while identity is down and loads the keys once it answers', async () => {
    const identity = new FakeIdentity();
    const source = new TokenKeySource(identity, logger, { retryMs: 10_000, minRefetchMs: 0 });
    await source.start();
    assert.equal(await source.verifierFor('k1'), undefined);
    identity.keys = [{ kid: 'k1', publicKeyPem: pem() }];
    assert.equal((await source.verifierFor('k1'))?.hasKey('k1'), true);
    source.stop();
  });

  it('asks again for an unknown key id (a rotation), but at most once per interval', async () => {
    const identity = new FakeIdentity();
    identity.keys = [{ kid: 'k1', publicKeyPem: pem() }];
    const source = new TokenKeySource(identity, logger, { minRefetchMs: 60_000 });
    await source.start();
    assert.equal(identity.calls, 1);
    await source.verifierFor('k1');
    assert.equal(identity.calls, 1, 'a known key needs no call');
    await source.verifierFor('forged-1');
    await source.verifierFor('forged-2');
    assert.equal(identity.calls, 1, 'a flood of unknown kids does not reach identity');

    const rotating = new TokenKeySource(identity, logger, { minRefetchMs: 0 });
    await rotating.start();
    identity.keys = [{ kid: 'k2', publicKeyPem: pem() }, ...identity.keys];
    assert.equal((await rotating.verifierFor('k2'))?.hasKey('k2'), true);
    source.stop();
    rotating.stop();
  });
});
