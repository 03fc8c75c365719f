import { inCidr, parseCidr, parseIp, type Cidr } from './ip.js';

/**
 * Addresses a callback may never reach (reliability rules, SSRF): everything that is not public
 * unicast. Named so that a refusal in the logs says why.
 */
const BLOCKED_RANGES: ReadonlyArray<readonly [string, string]> = [
  ['0.0.0.0/8', 'this-network'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade-nat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'ietf-protocol'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4-relay'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
  ['255.255.255.255/32', 'broadcast'],
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::ffff:0:0/96', 'ipv4-mapped'],
  ['::/96', 'ipv4-compatible'],
  ['64:ff9b::/96', 'nat64'],
  ['64:ff9b:1::/48', 'nat64'],
  ['100::/64', 'discard'],
  ['2001::/23', 'ietf-protocol'],
  ['2001:db8::/32', 'documentation'],
  ['2002::/16', '6to4'],
  ['3fff::/20', 'documentation'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
];

const BLOCKED: ReadonlyArray<{ cidr: Cidr; name: string }> = BLOCKED_RANGES.map(([text, name]) => ({ cidr: parseCidr(text), name }));
/** IANA has allocated only 2000::/3 as global unicast; anything else in IPv6 is not a public host. */
const GLOBAL_UNICAST_V6 = parseCidr('2000::/3');

export type AddressVerdict = { allowed: true; via: 'public' | 'allow-list' } | { allowed: false; reason: string };

/** The operator's exceptions (tests, private deployments), parsed once. */
export class SsrfPolicy {
  readonly allowList: readonly Cidr[];

  constructor(allowList: readonly string[] = []) {
    this.allowList = allowList.map(parseCidr);
  }

  /**
   * Decides on the address actually dialled (after DNS, so rebinding cannot slip through). An allow-list
   * entry matches its own family only: an IPv4-mapped IPv6 address needs an IPv6 entry, because the
   * stack may route it differently from the IPv4 address it embeds.
   */
  check(address: string): AddressVerdict {
    const ip = parseIp(address);
    if (!ip) return { allowed: false, reason: `not an IP address: ${address}` };
    if (this.allowList.some((cidr) => inCidr(ip, cidr))) return { allowed: true, via: 'allow-list' };
    const hit = BLOCKED.find(({ cidr }) => inCidr(ip, cidr));
    if (hit) return { allowed: false, reason: `${address} is a ${hit.name} address (${hit.cidr.text})` };
    if (ip.family === 6 && !inCidr(ip, GLOBAL_UNICAST_V6)) return { allowed: false, reason: `${address} is not a global unicast address` };
    return { allowed: true, via: 'public' };
  }
}

/** The error a refused connection fails with; the attempt log shows its message. */
export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
  readonly code = 'ERR_BLOCKED_ADDRESS';

  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`refused by SSRF policy: ${host}: ${reason}`);
  }
}
