import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { AccessTokenVerifier } from './auth-jwt.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const publicKeyPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
const verifier = new AccessTokenVerifier({ issuer: 'iss', audience: 'aud', keys: [{ kid: 'k1', publicKeyPem }] });
const now = new Date('2025-06-01T12:00:00Z');
const t = Math.floor(now.getTime() / 1000);

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
function token(
  claims: Record<string, unknown> = {},
  header: Record<string, unknown> = { alg: 'EdDSA', typ: 'JWT', kid: 'k1' },
  key: KeyObject | null = privateKey,
): string {
  const input = `${b64(header)}.${b64({ sub: 'u1', role: 'API_USER', usr: 'a@b.c', jti: 'j', iss: 'iss', aud: 'aud', iat: t, nbf: t, exp: t + 900, ...claims })}`;
  return `${input}.${key ? sign(null, Buffer.from(input), key).toString('base64url') : ''}`;
}

describe('AccessTokenVerifier', () => {
  it('accepts a good token and returns its principal and issued-at (checked against logouts later)', async () => {
    assert.deepEqual(await verifier.verify(token({ acc: 'a1' }), now), {
      ok: true,
      principal: { userId: 'u1', role: 'API_USER', username: 'a@b.c', accountId: 'a1' },
      issuedAtSeconds: t,
    });
  });

  it('refuses every substitution of the algorithm', async () => {
    assert.deepEqual(await verifier.verify(token({}, { alg: 'none', kid: 'k1' }, null), now), { ok: false, reason: 'algorithm' });
    const input = `${b64({ alg: 'HS256', kid: 'k1' })}.${b64({ sub: 'u1' })}`;
    const hs = `${input}.${createHmac('sha256', publicKeyPem).update(input).digest('base64url')}`;
    assert.deepEqual(await verifier.verify(hs, now), { ok: false, reason: 'algorithm' });
    assert.deepEqual(await verifier.verify(token({}, { alg: 'EdDSA', kid: 'k1', crit: ['exp'] }), now), { ok: false, reason: 'malformed' });
  });

  it('refuses tampering, foreign keys and unknown key ids', async () => {
    const [h, , s] = token().split('.');
    assert.deepEqual(
      await verifier.verify(
        `${h}.${b64({ sub: 'u1', role: 'ADMIN', usr: 'a@b.c', jti: 'j', iss: 'iss', aud: 'aud', iat: t, nbf: t, exp: t + 900 })}.${s}`,
        now,
      ),
      { ok: false, reason: 'signature' },
    );
    assert.deepEqual(await verifier.verify(token({}, undefined, generateKeyPairSync('ed25519').privateKey), now), { ok: false, reason: 'signature' });
    assert.deepEqual(await verifier.verify(token({}, { alg: 'EdDSA', kid: 'k2' }), now), { ok: false, reason: 'unknown-key' });
    assert.equal(AccessTokenVerifier.kidOf(token({}, { alg: 'EdDSA', kid: 'k2' })), 'k2');
    for (const junk of ['', 'a.b', 'a.b.c', `${'x'.repeat(9000)}.y.z`]) assert.equal((await verifier.verify(junk, now)).ok, false, junk.slice(0, 10));
  });

  it('checks issuer, audience, expiry and not-before with 30 s of tolerance', async () => {
    assert.deepEqual(await verifier.verify(token({ iss: 'other' }), now), { ok: false, reason: 'issuer' });
    assert.deepEqual(await verifier.verify(token({ aud: 'other' }), now), { ok: false, reason: 'audience' });
    assert.equal((await verifier.verify(token({ aud: ['x', 'aud'] }), now)).ok, true);
    assert.deepEqual(await verifier.verify(token({ exp: t - 31 }), now), { ok: false, reason: 'expired' });
    assert.equal((await verifier.verify(token({ exp: t - 29 }), now)).ok, true);
    assert.deepEqual(await verifier.verify(token({ nbf: t + 60 }), now), { ok: false, reason: 'not-yet-valid' });
    assert.deepEqual(await verifier.verify(token({ exp: 'tomorrow' }), now), { ok: false, reason: 'claims' });
    assert.deepEqual(await verifier.verify(token({ role: 7 }), now), { ok: false, reason: 'claims' });
  });

  it('remembers a verified token but checks its times on every use', async () => {
    const fresh = new AccessTokenVerifier({ issuer: 'iss', audience: 'aud', keys: [{ kid: 'k1', publicKeyPem }] });
    const good = token({ exp: t + 60 });
    assert.equal((await fresh.verify(good, now)).ok, true);
    assert.equal((await fresh.verify(good, now)).ok, true, 'again, from memory');
    assert.deepEqual(await fresh.verify(good, new Date(now.getTime() + 91_000)), { ok: false, reason: 'expired' });
    // A refused token is not remembered as good, and a tampered copy of a good one is its own string.
    const [h, p, sig] = good.split('.');
    const flipped = `${h}.${p}.${sig!.slice(0, -2)}${sig!.endsWith('AA') ? 'BA' : 'AA'}`;
    assert.deepEqual(await fresh.verify(flipped, now), { ok: false, reason: 'signature' });
    assert.deepEqual(await fresh.verify(flipped, now), { ok: false, reason: 'signature' });
  });

  it('refuses keys that are not Ed25519', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'pem', type: 'spki' }).toString();
    assert.throws(() => new AccessTokenVerifier({ issuer: 'i', audience: 'a', keys: [{ kid: 'r', publicKeyPem: rsa }] }), /Ed25519/);
  });
});
