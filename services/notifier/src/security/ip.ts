import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Literal addresses and CIDR ranges, parsed by ipaddr.js. Only the standard text forms are accepted
 * (node:net decides): ipaddr.js alone would also read the shorthand IPv4 forms (127.1, 0x7f.1) that
 * some resolvers and URL parsers treat differently, which is how filters get bypassed.
 */
export interface IpAddress {
  family: 4 | 6;
  address: ipaddr.IPv4 | ipaddr.IPv6;
}

export interface Cidr extends IpAddress {
  prefix: number;
  /** As written, for logs and errors. */
  text: string;
}

/** Parses a literal IPv4 or IPv6 address (brackets and an IPv6 zone id allowed); undefined for anything else. */
export function parseIp(text: string): IpAddress | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIPv4(bare)) return { family: 4, address: ipaddr.IPv4.parse(bare) };
  if (isIPv6(bare)) return { family: 6, address: ipaddr.IPv6.parse(bare) };
  return undefined;
}

/** Parses `a.b.c.d/n`, `x::/n` or a bare address (a /32 or /128). Throws with the text on error. */
export function parseCidr(text: string): Cidr {
  const [address = '', prefixText, extra] = text.trim().split('/');
  const ip = parseIp(address);
  if (!ip || extra !== undefined) throw new Error(`not an IP address or CIDR: "${text}"`);
  const max = ip.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!/^\d+$/.test(prefixText ?? String(max)) || !Number.isInteger(prefix) || prefix < 0 || prefix > max)
    throw new Error(`bad prefix length in CIDR "${text}"`);
  return { ...ip, prefix, text: text.trim() };
}

/** True when `ip` lies in `cidr`; families never match each other (IPv4-mapped is its own range). */
export function inCidr(ip: IpAddress, cidr: Cidr): boolean {
  if (ip.family === 4 && cidr.family === 4) return (ip.address as ipaddr.IPv4).match(cidr.address as ipaddr.IPv4, cidr.prefix);
  if (ip.family === 6 && cidr.family === 6) return (ip.address as ipaddr.IPv6).match(cidr.address as ipaddr.IPv6, cidr.prefix);
  return false;
}
