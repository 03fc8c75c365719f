import assert from 'node:assert/strict';
import type { identityV1 } from '@stormhook/proto';
import { generateKeyPairSync } from 'node:crypto';
import { InternalTokenSigner, InternalTokenVerifier, type VerifierOptions } from './internal-token.js';
import { InternalTokens } from './internal-tokens.js';
import { newPrincipalKeyPair } from './principal-keys.js';
import { serviceSignedPrincipalToken } from './test-tokens.js';

const KEY = 'k'.repeat(32);
const OTHER_KEY = 'o'.repeat(32);
const GATEWAY = newPrincipalKeyPair();
const OTHER_PAIR = newPrincipalKeyPair();
const CALLERS = ['gateway', 'alarm-matcher'];
const gatewaySigner = (options: { key?: string; now?: () => number; ttlMs?: number } = {}) =>
  new InternalTokenSigner({ key: KEY, principalKey: GATEWAY.signingKey, issuer: 'gateway', ...options });
const verifierFor = (audience: string, options: Partial<VerifierOptions> = {}) =>
  new InternalTokenVerifier({ key: KEY, principalKey: GATEWAY.publicKey, audience, callers: CALLERS, ...options });
const alice: identityV1.Principal = { userId: 'u-alice', accountId: 'a-1', role: 'API_USER', username: 'alice@example.com', via: 'access-token' };

describe('internal tokens', () => {
  let clock = 1_000_000;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('carries the principal and issuer to the audience it was signed for', () => {
    const token = gatewaySigner({ now }).sign('identity', alice).token;
    const outcome = verifierFor('identity', { now }).verify(token);
    assert.deepEqual(outcome, { ok: true, caller: { service: 'gateway', principal: alice }, expiresAtMs: clock + 60_000 });
  });

  it("signs a principal with the gateway's Ed25519 key and a service's own call with the shared key", () => {
    assert.match(gatewaySigner({ now }).sign('identity', alice).token, /^p1\./);
    assert.match(gatewaySigner({ now }).sign('identity').token, /^v1\./);
    const matcher = new InternalTokenSigner({ key: KEY, issuer: 'alarm-matcher', now });
    assert.deepEqual(verifierFor('notifier', { now }).verify(matcher.sign('notifier').token), {
      ok: true,
      caller: { service: 'alarm-matcher' },
      expiresAtMs: clock + 60_000,
    });
    assert.throws(() => matcher.sign('notifier', alice), /alarm-matcher holds no principal signing key/);
  });

  it('refuses a principal token signed with the shared service key (what any pod holding it could mint)', () => {
    const forged = serviceSignedPrincipalToken(KEY, 'gateway', 'identity', { ...alice, role: 'ADMIN' }, clock);
    assert.deepEqual(verifierFor('identity', { now }).verify(forged), { ok: false, reason: 'principal-signer' });
  });

  it('refuses a principal token signed with another Ed25519 key, or with its principal swapped', () => {
    const other = new InternalTokenSigner({ key: KEY, principalKey: OTHER_PAIR.signingKey, issuer: 'gateway', now });
    const verifier = verifierFor('identity', { now });
    assert.deepEqual(verifier.verify(other.sign('identity', alice).token), { ok: false, reason: 'signature' });
    const [prefix, body, signature] = gatewaySigner({ now }).sign('identity', alice).token.split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString()) as { p: string[] };
    claims.p[2] = 'ADMIN';
    assert.deepEqual(verifier.verify(`${prefix}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`), {
      ok: false,
      reason: 'signature',
    });
  });

  it('refuses a token whose issuer may not call this service (the edge table)', () => {
    const ingest = new InternalTokenSigner({ key: KEY, issuer: 'ingest', now });
    assert.deepEqual(verifierFor('notifier', { now }).verify(ingest.sign('notifier').token), { ok: false, reason: 'issuer' });
    const elsewhere = verifierFor('notifier', { now, callers: ['alarm-matcher'] });
    assert.deepEqual(elsewhere.verify(gatewaySigner({ now }).sign('notifier', alice).token), { ok: false, reason: 'issuer' });
  });

  it('accepts the old and the new gateway key during a rotation, and only the new one after it', () => {
    const next = newPrincipalKeyPair();
    const byOld = gatewaySigner({ now }).sign('identity', alice).token;
    const byNew = new InternalTokenSigner({ key: KEY, principalKey: next.signingKey, issuer: 'gateway', now }).sign('identity', alice).token;
    // The Secret's public key entry holds both PEM blocks while the gateways change over.
    const during = verifierFor('identity', { now, principalKey: `${next.publicKey}${GATEWAY.publicKey}` });
    assert.equal(during.verify(byOld).ok, true);
    assert.equal(during.verify(byNew).ok, true);
    const after = verifierFor('identity', { now, principalKey: next.publicKey });
    assert.deepEqual(after.verify(byOld), { ok: false, reason: 'signature' });
    assert.equal(after.verify(byNew).ok, true);
  });

  it('takes only Ed25519 keys, and only the public key on the verifying side', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    assert.throws(() => new InternalTokenSigner({ key: KEY, principalKey: rsa, issuer: 'gateway' }), /not Ed25519/);
    assert.throws(() => verifierFor('identity', { principalKey: GATEWAY.signingKey }), /is a private key/);
    assert.throws(() => new InternalTokenSigner({ key: KEY, principalKey: GATEWAY.publicKey, issuer: 'gateway' }));
    // One-line PEM, as an env file carries it.
    const oneLine = verifierFor('identity', { now, principalKey: GATEWAY.publicKey.replace(/\n/g, '\\n') });
    assert.equal(oneLine.verify(gatewaySigner({ now }).sign('identity', alice).token).ok, true);
  });

  it('refuses a missing token, another key, another audience, a tampered body and an expired token', () => {
    const signer = gatewaySigner({ now });
    const verifier = verifierFor('identity', { now });
    const reason = (token: string | undefined) => {
      const outcome = verifier.verify(token);
      return outcome.ok ? 'ok' : outcome.reason;
    };
    assert.equal(reason(undefined), 'missing');
    assert.equal(reason('garbage'), 'malformed');
    assert.equal(reason(gatewaySigner({ key: OTHER_KEY, now }).sign('identity').token), 'signature');
    assert.equal(reason(signer.sign('notifier', alice).token), 'audience');
    // The issuer swapped for another service's, HMAC kept: it no longer matches.
    const [prefix, body, mac] = signer.sign('identity').token.split('.');
    const forged = JSON.parse(Buffer.from(body!, 'base64url').toString()) as { iss: string };
    forged.iss = 'alarm-matcher';
    assert.equal(reason(`${prefix}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`), 'signature');
    const old = signer.sign('identity', alice).token;
    assert.equal(reason(old), 'ok');
    clock += 60_000 + 5_000; // lifetime plus the allowed skew
    assert.equal(reason(old), 'expired', 'a cached verification expires too');
    assert.equal(reason(signer.sign('identity', alice).token), 'ok');
  });

  it('refuses a token that claims a lifetime beyond the maximum', () => {
    const longLived = gatewaySigner({ ttlMs: 3_600_000, now }).sign('identity').token;
    const outcome = verifierFor('identity', { now }).verify(longLived);
    assert.deepEqual(outcome, { ok: false, reason: 'expired' });
  });

  it('refuses keys shorter than 32 characters', () => {
    assert.throws(() => new InternalTokenSigner({ key: 'short', issuer: 'gateway' }), /at least 32 characters/);
    assert.throws(() => verifierFor('geo', { key: 'short' }), /at least 32 characters/);
  });

  it('signs once per principal and audience, and again shortly before expiry or when the role changes', () => {
    const tokens = new InternalTokens({ key: KEY, principalKey: GATEWAY.signingKey, issuer: 'gateway', now });
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
    const verified = verifierFor('identity', { now }).verify(renewed);
    assert.equal(verified.ok, true);
  });
});
