import assert from 'node:assert/strict';
import { currentPrincipal, type AccessSnapshot, type ClaimedCaller } from './snapshot.js';
import { issuedAtSeconds, issuedBeforeValidFrom, tokensValidFrom } from './token-validity.js';

const USER = '3f1c6a52-3c1e-4f0b-9d54-0c9f3a2b7e10';

function snapshot(validFrom?: Date): AccessSnapshot {
  return { userId: USER, username: 'ada@example.com', role: 'STANDARD_USER', status: 'ACTIVE', ...(validFrom ? { accessTokensValidFrom: validFrom } : {}) };
}

function token(iat: number): ClaimedCaller {
  return { userId: USER, via: 'access-token', issuedAtSeconds: iat };
}

describe('access token validity after logout', () => {
  // Logout at 1_700_000_000.400 s: JWT iat only says "second 1_700_000_000" for tokens before and after it.
  const logoutAt = new Date(1_700_000_000_400);
  const validFrom = tokensValidFrom(logoutAt);

  it('starts at the whole second after the ending, even when the ending falls on a second', () => {
    assert.equal(validFrom.getTime(), 1_700_000_001_000);
    assert.equal(tokensValidFrom(new Date(1_700_000_000_000)).getTime(), 1_700_000_001_000);
    assert.equal(tokensValidFrom(new Date(1_700_000_000_999)).getTime(), 1_700_000_001_000);
  });

  it('refuses a token issued in the same second as the logout, before it', () => {
    const issuedBefore = issuedAtSeconds(new Date(1_700_000_000_100), undefined);
    assert.equal(issuedBefore, 1_700_000_000);
    assert.equal(issuedBeforeValidFrom(issuedBefore, validFrom), true);
    assert.equal(currentPrincipal(snapshot(validFrom), token(issuedBefore)), undefined);
    assert.equal(currentPrincipal(snapshot(validFrom), token(issuedBefore - 600)), undefined);
  });

  it('accepts a token of a login in the same second, after the logout', () => {
    const issuedAfter = issuedAtSeconds(new Date(1_700_000_000_700), validFrom);
    assert.equal(issuedAfter, 1_700_000_001, 'stamped with the valid-from second, not the clock second');
    assert.equal(issuedBeforeValidFrom(issuedAfter, validFrom), false);
    assert.equal(currentPrincipal(snapshot(validFrom), token(issuedAfter))?.userId, USER);
  });

  it('stamps later tokens with the clock, and accepts every token while none were ended', () => {
    assert.equal(issuedAtSeconds(new Date(1_700_000_005_900), validFrom), 1_700_000_005);
    assert.equal(currentPrincipal(snapshot(validFrom), token(1_700_000_005))?.userId, USER);
    assert.equal(currentPrincipal(snapshot(), token(1_600_000_000))?.userId, USER);
  });

  it('leaves API keys to their own revocation', () => {
    const apiUser: AccessSnapshot = { ...snapshot(validFrom), role: 'API_USER' };
    assert.equal(currentPrincipal(apiUser, { userId: USER, via: 'api-key' })?.via, 'api-key');
  });
});
