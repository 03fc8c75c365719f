import assert from 'node:assert/strict';
import { MAX_RESET_SECONDS, quotaHeaders, type QuotaState } from './quota-meter.js';

describe('quotaHeaders', () => {
  const state: QuotaState = { allowed: true, limit: 100, remaining: 42, resetSeconds: 3600, windowSeconds: 86400 };

  it('writes the RateLimit fields and no Retry-After while calls are allowed', () => {
    assert.deepEqual(quotaHeaders(state), {
      'RateLimit-Limit': '100',
      'RateLimit-Remaining': '42',
      'RateLimit-Reset': '3600',
      'RateLimit-Policy': '100;w=86400',
    });
  });

  it('adds Retry-After, equal to the reset, once the quota is spent', () => {
    const spent = quotaHeaders({ ...state, allowed: false, remaining: 0 });
    assert.equal(spent['Retry-After'], '3600');
    assert.equal(spent['RateLimit-Remaining'], '0');
  });

  it('shows a never-ending window as one year', () => {
    assert.equal(MAX_RESET_SECONDS, 31_536_000);
  });
});
