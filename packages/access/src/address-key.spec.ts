import assert from 'node:assert/strict';
import { addressLimitKey } from './address-key.js';

describe('addressLimitKey', () => {
  it('keys an IPv6 client by its /64, so rotating within it does not escape a limit', () => {
    assert.equal(addressLimitKey('2001:db8:1:2::1'), '2001:db8:1:2::/64');
    assert.equal(addressLimitKey('2001:db8:1:2:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
    assert.equal(addressLimitKey('2001:DB8:1:2:0:0:0:abcd'), '2001:db8:1:2::/64');
    assert.notEqual(addressLimitKey('2001:db8:1:3::1'), addressLimitKey('2001:db8:1:2::1'));
  });

  it('keys an IPv4 client by its address, also when a dual-stack socket reports it IPv4-mapped', () => {
    assert.equal(addressLimitKey('203.0.113.7'), '203.0.113.7');
    assert.equal(addressLimitKey('::ffff:203.0.113.7'), '203.0.113.7');
    assert.notEqual(addressLimitKey('203.0.113.8'), addressLimitKey('203.0.113.7'));
  });

  it('counts anything else as itself', () => {
    assert.equal(addressLimitKey('unknown'), 'unknown');
    assert.equal(addressLimitKey('127.1'), '127.1');
    assert.equal(addressLimitKey(undefined), 'unknown');
    assert.equal(addressLimitKey(''), 'unknown');
  });
});
