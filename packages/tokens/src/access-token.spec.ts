import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { signAccessToken, verifyAccessToken, type AccessTokenClaims } from './access-token.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const keys = new Map([['k1', publicKey]]);
const now = new Date('2025-06-01T12:00:00Z');
const t = Math.floor(now.getTime() / 1000);
const claims: AccessTokenClaims = { sub: 'u1', role: 'API_USER', usr: 'a@b.c', jti: 'j1', iss: 'iss', aud: 'aud', iat: t, nbf: t, exp: t + 900 };
const options = { issuer: 'iss', audience: 'aud', now };
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('access tokens (jose)', () => {
  it('signs EdDSA with typ and kid, and verifies back to the same claims', async () => {
    const token = await signAccessToken({ ...claims, acc: 'a1' }, privateKey, 'k1');
    assert.deepEqual(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()), { alg: 'EdDSA', typ: 'JWT', kid: 'k1' });
    assert.deepEqual(await verifyAccessToken(token, keys, options), { ok: true, claims: { ...claims, acc: 'a1' } });
  });

  it('verifies a token signed by hand the way identity signed before jose (same wire format)', async () => {
    const input = `${b64({ alg: 'EdDSA', typ: 'JWT', kid: 'k1' })}.${b64(claims)}`;
    const token = `${input}.${sign(null, Buffer.from(input, 'ascii'), privateKey).toString('base64url')}`;
    assert.equal((await verifyAccessToken(token, keys, options)).ok, true);
  });

  it('answers each refusal with its reason and never throws', async () => {
    const good = await signAccessToken(claims, privateKey, 'k1');
    const [h, p] = good.split('.');
    const cases: Array<[string, string]> = [
      [`${b64({ alg: 'none', kid: 'k1' })}.${p}.`, 'algorithm'],
      [`${b64({ alg: 'EdDSA', kid: 'k2' })}.${p}.${good.split('.')[2]}`, 'unknown-key'],
      [`${h}.${b64({ ...claims, role: 'ADMIN' })}.${good.split('.')[2]}`, 'signature'],
      [await signAccessToken({ ...claims, iss: 'other' }, privateKey, 'k1'), 'issuer'],
      [await signAccessToken({ ...claims, aud: 'other' }, privateKey, 'k1'), 'audience'],
      [await signAccessToken({ ...claims, exp: t - 31 }, privateKey, 'k1'), 'expired'],
      [await signAccessToken({ ...claims, nbf: t + 60 }, privateKey, 'k1'), 'not-yet-valid'],
      [await signAccessToken({ ...claims, iat: t + 60 }, privateKey, 'k1'), 'not-yet-valid'],
      [await signAccessToken({ ...claims, role: 7 } as unknown as AccessTokenClaims, privateKey, 'k1'), 'claims'],
      [await signAccessToken({ ...claims, jti: undefined } as unknown as AccessTokenClaims, privateKey, 'k1'), 'claims'],
      ['a.b', 'malformed'],
      [`${'x'.repeat(9000)}.y.z`, 'malformed'],
    ];
    for (const [token, reason] of cases) assert.deepEqual(await verifyAccessToken(token, keys, options), { ok: false, reason }, reason);
  });
});
