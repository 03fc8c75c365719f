import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { generateSigningKey, JwtSigner, JwtVerifier, keyIdOf, publicKeyPem, signingKeyFromPem, verificationKeyFromPem } from './jwt.js';

const audience = { issuer: 'stormhook-identity', audience: 'stormhook-api' };
const claims = { sub: '6f1c1e4e-8d2b-4a55-9a3e-0d9f7a1c2b3d', role: 'API_USER', usr: 'ada@example.com', jti: 'j-1', acc: 'acc-1' };
const now = new Date('2025-06-01T12:00:00Z');

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function parts(token: string): [string, string, string] {
  const [h = '', p = '', s = ''] = token.split('.');
  return [h, p, s];
}

describe('JWT (Ed25519, through @stormhook/tokens on jose)', () => {
  const key = generateSigningKey();
  const signer = new JwtSigner(key, audience);
  const verifier = new JwtVerifier([key], audience);
  let token = '';
  before(async () => {
    ({ token } = await signer.sign(claims, now, 900));
  });

  it('signs a token that verifies, with exp = iat + ttl and the fixed header', async () => {
    const result = await verifier.verify(token, new Date(now.getTime() + 60_000));
    assert.equal(result.ok, true);
    assert.ok(result.ok);
    assert.equal(result.claims.sub, claims.sub);
    assert.equal(result.claims.acc, 'acc-1');
    assert.equal(result.claims.exp - result.claims.iat, 900);
    assert.deepEqual(JSON.parse(Buffer.from(parts(token)[0], 'base64url').toString()), { alg: 'EdDSA', typ: 'JWT', kid: key.kid });
  });

  it("never stamps a token before the user's valid-from second, so a login right after a logout works", async () => {
    const validFrom = new Date(now.getTime() + 1_000);
    const sameSecond = (await signer.sign(claims, new Date(now.getTime() + 300), 900, validFrom)).claims;
    assert.equal(sameSecond.iat, validFrom.getTime() / 1000);
    assert.equal(sameSecond.exp - sameSecond.iat, 900);
    const verified = await verifier.verify((await signer.sign(claims, new Date(now.getTime() + 300), 900, validFrom)).token, now);
    assert.equal(verified.ok, true, 'a second ahead is within every verifier tolerance');
    const later = (await signer.sign(claims, new Date(now.getTime() + 5_500), 900, validFrom)).claims;
    assert.equal(later.iat, now.getTime() / 1000 + 5);
  });

  it('rejects a tampered signature and a tampered payload', async () => {
    const [h, p, s] = parts(token);
    const flipped = (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    assert.deepEqual(await verifier.verify(`${h}.${p}.${flipped}`, now), { ok: false, reason: 'signature' });
    const promoted = b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), role: 'ADMIN' });
    assert.deepEqual(await verifier.verify(`${h}.${promoted}.${s}`, now), { ok: false, reason: 'signature' });
  });

  it('rejects an expired token (beyond the 30 s clock tolerance) and a token from the future', async () => {
    assert.deepEqual(await verifier.verify(token, new Date(now.getTime() + 931_000)), { ok: false, reason: 'expired' });
    assert.equal((await verifier.verify(token, new Date(now.getTime() + 920_000))).ok, true);
    assert.deepEqual(await verifier.verify(token, new Date(now.getTime() - 120_000)), { ok: false, reason: 'not-yet-valid' });
  });

  it('rejects alg none, and HS256 signed with the public key as secret', async () => {
    const [, p] = parts(token);
    const none = `${b64({ alg: 'none', typ: 'JWT', kid: key.kid })}.${p}.`;
    assert.deepEqual(await verifier.verify(none, now), { ok: false, reason: 'algorithm' });
    assert.deepEqual(await verifier.verify(`${b64({ alg: 'None', typ: 'JWT' })}.${p}.`, now), { ok: false, reason: 'algorithm' });
    const noneSigned = `${b64({ alg: 'none', typ: 'JWT', kid: key.kid })}.${p}.AAAA`;
    assert.deepEqual(await verifier.verify(noneSigned, now), { ok: false, reason: 'algorithm' });
    const hsHeader = b64({ alg: 'HS256', typ: 'JWT', kid: key.kid });
    const hsSig = createHmac('sha256', publicKeyPem(key)).update(`${hsHeader}.${p}`).digest('base64url');
    assert.deepEqual(await verifier.verify(`${hsHeader}.${p}.${hsSig}`, now), { ok: false, reason: 'algorithm' });
  });

  it('rejects a wrong audience or issuer even with a valid signature', async () => {
    const otherAud = (await new JwtSigner(key, { ...audience, audience: 'another-api' }).sign(claims, now, 900)).token;
    assert.deepEqual(await verifier.verify(otherAud, now), { ok: false, reason: 'audience' });
    const otherIss = (await new JwtSigner(key, { ...audience, issuer: 'someone-else' }).sign(claims, now, 900)).token;
    assert.deepEqual(await verifier.verify(otherIss, now), { ok: false, reason: 'issuer' });
  });

  it('rejects a token of a key it does not know, and accepts both keys during a rotation', async () => {
    const next = generateSigningKey();
    const fromNext = (await new JwtSigner(next, audience).sign(claims, now, 900)).token;
    assert.deepEqual(await verifier.verify(fromNext, now), { ok: false, reason: 'unknown-key' });
    const rotating = new JwtVerifier([key, { kid: next.kid, publicKey: next.publicKey }], audience);
    assert.equal((await rotating.verify(fromNext, now)).ok, true);
    assert.equal((await rotating.verify(token, now)).ok, true);
  });

  it('rejects garbage without throwing', async () => {
    for (const bad of [
      '',
      'a.b',
      'a.b.c.d',
      '!!!.???.***',
      `${b64('str')}.${b64({})}.x`,
      `${b64({ alg: 'EdDSA', kid: key.kid, crit: ['exp'] })}.${parts(token)[1]}.${parts(token)[2]}`,
    ]) {
      const result = await verifier.verify(bad, now);
      assert.equal(result.ok, false, bad);
    }
  });

  it('loads keys from PEM with a stable thumbprint key id', async () => {
    const pem = key.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const loaded = signingKeyFromPem(pem);
    assert.equal(loaded.kid, key.kid);
    assert.equal(keyIdOf(loaded.publicKey), key.kid);
    const pub = verificationKeyFromPem(publicKeyPem(key));
    assert.equal((await new JwtVerifier([pub], audience).verify(token, now)).ok, true);
    assert.throws(() => verificationKeyFromPem(publicKeyPem({ publicKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey })), /Ed25519/);
  });
});
