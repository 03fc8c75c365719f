import assert from 'node:assert/strict';
import type { identityV1 } from '@stormhook/proto';
import { InternalTokenSigner, InternalTokenVerifier } from './internal-token.js';
import { InternalTokens } from './internal-tokens.js';

const KEY = 'k'.repeat(32);
const OTHER_KEY = 'o'.repeat(32);
const alice: identityV1.Principal = { userId: 'u-alice', accountId: 'a-1', role: 'API_USER', username: 'alice@example.com', via: 'access-token' };

describe('internal tokens', () => {
  let clock = 1_000_000;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('carries the principal and issuer to the audience it was signed for', () => {
    const token = new InternalTokenSigner({ key: KEY, issuer: 'gateway', now }).sign('identity', alice).token;
    const outcome = new InternalTokenVerifier({ key: KEY, audience: 'identity', now }).verify(token);
    assert.deepEqual(outcome, { ok: true, caller: { service: 'gateway', principal: alice }, expiresAtMs: clock + 60_000 });
  });

  it('refuses a missing token, another key, another audience, a tampered body and an expired token', () => {
    const signer = new InternalTokenSigner({ key: KEY, issuer: 'gateway', now });
    const verifier = new InternalTokenVerifier({ key: KEY, audience: 'identity', now });
    const reason = (token: string | undefined) => {
      const outcome = verifier.verify(token);
      return outcome.ok ? 'ok' : outcome.reason;
    };
    assert.equal(reason(undefined), 'missing');
    assert.equal(reason('garbage'), 'malformed');
    assert.equal(reason(new InternalTokenSigner({ key: OTHER_KEY, issuer: 'gateway', now }).sign('identity', alice).token), 'signature');
    assert.equal(reason(signer.sign('notifier', alice).token), 'audience');
    // The principal swapped for another user's, signature kept: the HMAC no longer matches.
    const [prefix, body, mac] = signer.sign('identity', alice).token.split('.');
    const forged = JSON.parse(Buffer.from(body!, 'base64url').toString()) as { p: string[] };
    forged.p[0] = 'u-admin';
    assert.equal(reason(`${prefix}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`), 'signature');
    const old = signer.sign('identity', alice).token;
    assert.equal(reason(old), 'ok');
    clock += 60_000 + 5_000; // lifetime plus the allowed skew
    assert.equal(reason(old), 'expired', 'a cached verification expires too');
    assert.equal(reason(signer.sign('identity', alice).token), 'ok');
  });

  it('refuses a token that claims a lifetime beyond the maximum', () => {
    const longLived = new InternalTokenSigner({ key: KEY, issuer: 'gateway', ttlMs: 3_600_000, now }).sign('identity').token;
    const outcome = new InternalTokenVerifier({ key: KEY, audience: 'identity', now }).verify(longLived);
    assert.deepEqual(outcome, { ok: false, reason: 'expired' });
  });

  it('refuses keys shorter than 32 characters', () => {
    assert.throws(() => new InternalTokenSigner({ key: 'short', issuer: 'gateway' }), /at least 32 characters/);
    assert.throws(() => new InternalTokenVerifier({ key: 'short', audience: 'geo' }), /at least 32 characters/);
  });

  it('signs once per principal and audience, and again shortly before expiry or when the role changes', () => {
    const tokens = new InternalTokens({ key: KEY, issuer: 'gateway', now });
    const first = tokens.forPrincipal('identity', alice);
    assert.equal(tokens.forPrincipal('identity', { ...alice }), first);
    assert.notEqual(tokens.forPrincipal('notifier', alice), first);
    assert.notEqual(tokens.forService('identity'), first);
    clock += 44_000;
    assert.equal(tokens.forPrincipal('identity', alice), first, 'still 16 s to live');
    clock += 2_000;
    const renewed = tokens.forPrincipal('identity', alice);
    assert.notEqual(renewed, first, 'renewed 15 s before expiry');
    const promoted = tokens.forPrincipal('identity', { ...alice, role: 'ADMIN' });
    assert.notEqual(promoted, renewed, 'a role change gets a new token at once');
    assert.equal(tokens.forPrincipal('identity', { ...alice, role: 'ADMIN' }), promoted);
    const verified = new InternalTokenVerifier({ key: KEY, audience: 'identity', now }).verify(renewed);
    assert.equal(verified.ok, true);
  });
});
