import assert from 'node:assert/strict';
import type { identityV1 } from '@stormhook/proto';
import { generateKeyPairSync } from 'node:crypto';
import { InternalTokenSigner, InternalTokenVerifier, type VerifierOptions } from './internal-token.js';
import { InternalTokens } from './internal-tokens.js';
import { newServiceKeyPair } from './service-keys.js';
import { forgedToken, sharedKeyToken } from './test-tokens.js';

const GATEWAY = newServiceKeyPair();
const MATCHER = newServiceKeyPair();
const QUERY = newServiceKeyPair();
const OTHER_PAIR = newServiceKeyPair();
const CALLERS = ['gateway', 'alarm-matcher'];
/** Every calling service's public key, as INTERNAL_PUBLIC_KEYS carries them: a verifier uses only its callers'. */
const PUBLIC_KEYS = { gateway: GATEWAY.publicKey, 'alarm-matcher': MATCHER.publicKey, query: QUERY.publicKey };
const gatewaySigner = (options: { key?: string; now?: () => number; ttlMs?: number } = {}) =>
  new InternalTokenSigner({ key: GATEWAY.signingKey, issuer: 'gateway', ...options });
const verifierFor = (audience: string, options: Partial<VerifierOptions> = {}) =>
  new InternalTokenVerifier({ publicKeys: PUBLIC_KEYS, audience, callers: CALLERS, ...options });
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

  it("checks each issuer's token with that issuer's own key", () => {
    const matcher = new InternalTokenSigner({ key: MATCHER.signingKey, issuer: 'alarm-matcher', now });
    assert.deepEqual(verifierFor('notifier', { now }).verify(matcher.sign('notifier').token), {
      ok: true,
      caller: { service: 'alarm-matcher' },
      expiresAtMs: clock + 60_000,
    });
    assert.deepEqual(verifierFor('notifier', { now }).verify(gatewaySigner({ now }).sign('notifier').token).ok, true);
    // The alarm-matcher's key in the gateway's name, and the other way round.
    const misnamed = new InternalTokenSigner({ key: MATCHER.signingKey, issuer: 'gateway', now });
    assert.deepEqual(verifierFor('notifier', { now }).verify(misnamed.sign('notifier').token), { ok: false, reason: 'signature' });
    const reversed = new InternalTokenSigner({ key: GATEWAY.signingKey, issuer: 'alarm-matcher', now });
    assert.deepEqual(verifierFor('notifier', { now }).verify(reversed.sign('notifier').token), { ok: false, reason: 'signature' });
  });

  it("refuses a token signed with query's key that names the gateway or the alarm-matcher as its issuer", () => {
    const verifier = verifierFor('notifier', { now });
    for (const iss of ['gateway', 'alarm-matcher']) {
      assert.deepEqual(verifier.verify(forgedToken(QUERY.signingKey, { iss, aud: 'notifier', nowMs: clock })), { ok: false, reason: 'signature' }, iss);
      const asCustomer = forgedToken(QUERY.signingKey, { iss, aud: 'notifier', principal: { ...alice, role: 'ADMIN' }, nowMs: clock });
      assert.deepEqual(verifier.verify(asCustomer), { ok: false, reason: 'signature' }, iss);
    }
  });

  it('refuses a token from a service with a valid key that may not call this one', () => {
    // Query holds a real key (geo takes its calls) but calls no notifier.
    const query = new InternalTokenSigner({ key: QUERY.signingKey, issuer: 'query', now });
    assert.deepEqual(verifierFor('notifier', { now }).verify(query.sign('notifier').token), { ok: false, reason: 'issuer' });
    assert.deepEqual(verifierFor('geo', { now, callers: ['query'] }).verify(query.sign('geo').token).ok, true);
    const elsewhere = verifierFor('notifier', { now, callers: ['alarm-matcher'] });
    assert.deepEqual(elsewhere.verify(gatewaySigner({ now }).sign('notifier', alice).token), { ok: false, reason: 'issuer' });
  });

  it('refuses a principal in a token from any issuer but the gateway, even signed with its own valid key', () => {
    const forged = forgedToken(MATCHER.signingKey, { iss: 'alarm-matcher', aud: 'notifier', principal: { ...alice, role: 'ADMIN' }, nowMs: clock });
    assert.deepEqual(verifierFor('notifier', { now }).verify(forged), { ok: false, reason: 'principal-signer' });
    const matcher = new InternalTokenSigner({ key: MATCHER.signingKey, issuer: 'alarm-matcher', now });
    assert.throws(() => matcher.sign('notifier', alice), /alarm-matcher cannot sign a token that carries a customer/);
  });

  it('refuses the retired forms: the shared-key HMAC token and the separate principal token', () => {
    const verifier = verifierFor('identity', { now });
    assert.deepEqual(verifier.verify(sharedKeyToken('k'.repeat(32), { iss: 'gateway', aud: 'identity', nowMs: clock })), { ok: false, reason: 'malformed' });
    const current = gatewaySigner({ now }).sign('identity', alice).token;
    assert.deepEqual(verifier.verify(current.replace(/^s1\./, 'p1.')), { ok: false, reason: 'malformed' });
  });

  it('refuses a token signed with another Ed25519 key, or with its principal swapped', () => {
    const other = new InternalTokenSigner({ key: OTHER_PAIR.signingKey, issuer: 'gateway', now });
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

  it("accepts a service's old and new key during a rotation, and only the new one after it", () => {
    const next = newServiceKeyPair();
    const byOld = gatewaySigner({ now }).sign('identity', alice).token;
    const byNew = new InternalTokenSigner({ key: next.signingKey, issuer: 'gateway', now }).sign('identity', alice).token;
    // The gateway's public key entry holds both PEM blocks while its pods change over.
    const during = verifierFor('identity', { now, publicKeys: { ...PUBLIC_KEYS, gateway: `${next.publicKey}${GATEWAY.publicKey}` } });
    assert.equal(during.verify(byOld).ok, true);
    assert.equal(during.verify(byNew).ok, true);
    const after = verifierFor('identity', { now, publicKeys: { ...PUBLIC_KEYS, gateway: next.publicKey } });
    assert.deepEqual(after.verify(byOld), { ok: false, reason: 'signature' });
    assert.equal(after.verify(byNew).ok, true);
  });

  it('takes only Ed25519 keys, only public keys on the verifying side, and one for every caller', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    assert.throws(() => new InternalTokenSigner({ key: rsa, issuer: 'gateway' }), /not Ed25519/);
    assert.throws(() => verifierFor('identity', { publicKeys: { ...PUBLIC_KEYS, gateway: GATEWAY.signingKey } }), /is a private key/);
    assert.throws(() => new InternalTokenSigner({ key: GATEWAY.publicKey, issuer: 'gateway' }));
    assert.throws(() => verifierFor('notifier', { publicKeys: { gateway: GATEWAY.publicKey } }), /no public key of alarm-matcher, which may call notifier/);
    // One-line PEM, as an env file carries it.
    const oneLine = verifierFor('identity', { now, publicKeys: { ...PUBLIC_KEYS, gateway: GATEWAY.publicKey.replace(/\n/g, '\\n') } });
    assert.equal(oneLine.verify(gatewaySigner({ now }).sign('identity', alice).token).ok, true);
  });

  it('refuses a missing token, another audience, a tampered issuer and an expired token', () => {
    const signer = gatewaySigner({ now });
    const verifier = verifierFor('identity', { now });
    const reason = (token: string | undefined) => {
      const outcome = verifier.verify(token);
      return outcome.ok ? 'ok' : outcome.reason;
    };
    assert.equal(reason(undefined), 'missing');
    assert.equal(reason('garbage'), 'malformed');
    assert.equal(reason(signer.sign('notifier', alice).token), 'audience');
    // The issuer swapped for another caller's, signature kept: checked with that caller's key, it fails.
    const [prefix, body, signature] = signer.sign('identity').token.split('.');
    const forged = JSON.parse(Buffer.from(body!, 'base64url').toString()) as { iss: string };
    forged.iss = 'alarm-matcher';
    assert.equal(reason(`${prefix}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`), 'signature');
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

  it('signs once per principal and audience, and again shortly before expiry or when the role changes', () => {
    const tokens = new InternalTokens({ key: GATEWAY.signingKey, issuer: 'gateway', now });
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
