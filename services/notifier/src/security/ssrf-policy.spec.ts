import assert from 'node:assert/strict';
import { SsrfPolicy } from './ssrf-policy.js';

describe('SSRF policy', () => {
  const policy = new SsrfPolicy();
  const refused = [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.10',
    '198.51.100.1',
    '203.0.113.9',
    '198.18.0.1',
    '240.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '2001:db8::1',
    '::ffff:127.0.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:c000:0204::1',
    'ff02::1',
    '2001::1',
  ];
  for (const address of refused) {
    it(`refuses ${address}`, () => assert.equal(policy.check(address).allowed, false));
  }
  for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4017:80e::200e']) {
    it(`allows public ${address}`, () => assert.deepEqual(policy.check(address), { allowed: true, via: 'public' }));
  }

  it('lets the operator allow-list through, per family', () => {
    const allowing = new SsrfPolicy(['127.0.0.1/32', '10.1.0.0/16']);
    assert.deepEqual(allowing.check('127.0.0.1'), { allowed: true, via: 'allow-list' });
    assert.equal(allowing.check('10.1.200.3').allowed, true);
    assert.equal(allowing.check('10.2.0.1').allowed, false);
    assert.equal(allowing.check('127.0.0.2').allowed, false);
    assert.equal(allowing.check('::ffff:127.0.0.1').allowed, false, 'IPv4-mapped needs an IPv6 entry');
  });

  it('reads IPv6 zone ids and bracketed literals, and never the shorthand IPv4 forms', () => {
    assert.equal(policy.check('fe80::1%eth0').allowed, false);
    assert.equal(policy.check('[::1]').allowed, false);
    for (const shorthand of ['127.1', '0x7f.0.0.1', '2130706433']) assert.match((policy.check(shorthand) as { reason: string }).reason, /not an IP address/);
  });

  it('names the range it refused', () => {
    const verdict = policy.check('169.254.169.254');
    assert.ok(!verdict.allowed && verdict.reason.includes('link-local'));
  });

  it('rejects a malformed allow-list entry at start', () => {
    assert.throws(() => new SsrfPolicy(['10.0.0.0/33']), /bad prefix/);
    assert.throws(() => new SsrfPolicy(['not-an-ip']), /not an IP/);
    // The hand-written parser read an empty prefix as /0: "10.0.0.0/" allowed every IPv4 address.
    assert.throws(() => new SsrfPolicy(['10.0.0.0/']), /bad prefix/);
    assert.throws(() => new SsrfPolicy(['10.0.0.0/8/9']), /not an IP address or CIDR/);
    assert.throws(() => new SsrfPolicy(['10.0.0.0/ 8']), /bad prefix/);
  });
});
