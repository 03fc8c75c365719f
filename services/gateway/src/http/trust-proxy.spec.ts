import assert from 'node:assert/strict';
import { parseTrustProxy } from './trust-proxy.js';

describe('HTTP_TRUST_PROXY', () => {
  it('reads off, a hop count, and a list of proxy addresses and ranges', () => {
    assert.equal(parseTrustProxy(''), false);
    assert.equal(parseTrustProxy('false'), false);
    assert.equal(parseTrustProxy('0'), false);
    assert.equal(parseTrustProxy('2'), 2);
    assert.deepEqual(parseTrustProxy('loopback, uniquelocal, 203.0.113.0/24, 2001:db8::/32, 10.1.2.3'), [
      'loopback',
      'uniquelocal',
      '203.0.113.0/24',
      '2001:db8::/32',
      '10.1.2.3',
    ]);
  });

  it('refuses trusting everyone and malformed entries, naming the variable', () => {
    assert.throws(() => parseTrustProxy('true'), /HTTP_TRUST_PROXY=true would let any client choose its address/);
    assert.throws(() => parseTrustProxy('11'), /HTTP_TRUST_PROXY must be/);
    assert.throws(() => parseTrustProxy('10.0.0.0/33'), /HTTP_TRUST_PROXY: "10.0.0.0\/33" is not an address/);
    assert.throws(() => parseTrustProxy('loopback, proxy.example'), /"proxy.example" is not an address/);
  });
});
