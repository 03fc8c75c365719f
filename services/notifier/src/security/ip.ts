import { isIPv4, isIPv6 } from 'node:net';

/** An address as bytes: 4 for IPv4, 16 for IPv6. */
export interface IpBytes {
  family: 4 | 6;
  bytes: Uint8Array;
}

export interface Cidr extends IpBytes {
  prefix: number;
  /** As written, for logs and errors. */
  text: string;
}

function v4Bytes(text: string): Uint8Array {
  return Uint8Array.from(text.split('.').map(Number));
}

function v6Bytes(text: string): Uint8Array {
  let address = text.split('%')[0] ?? text; // drop a zone id (fe80::1%eth0)
  const out = new Uint8Array(16);
  // A trailing dotted quad (::ffff:1.2.3.4) fills the last 4 bytes.
  let tail: Uint8Array | undefined;
  const lastColon = address.lastIndexOf(':');
  if (address.includes('.', lastColon)) {
    tail = v4Bytes(address.slice(lastColon + 1));
    address = `${address.slice(0, lastColon + 1)}0:0`;
  }
  const [head = '', rest] = address.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const groups = rest === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - restGroups.length).fill('0'), ...restGroups];
  groups.forEach((group, i) => {
    const value = parseInt(group, 16);
    out[i * 2] = value >> 8;
    out[i * 2 + 1] = value & 0xff;
  });
  if (tail) out.set(tail, 12);
  return out;
}

/** Parses a literal IPv4 or IPv6 address (brackets allowed); undefined for anything else. */
export function parseIp(text: string): IpBytes | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIPv4(bare)) return { family: 4, bytes: v4Bytes(bare) };
  if (isIPv6(bare)) return { family: 6, bytes: v6Bytes(bare) };
  return undefined;
}

/** Parses `a.b.c.d/n`, `x::/n` or a bare address (a /32 or /128). Throws with the text on error. */
export function parseCidr(text: string): Cidr {
  const [address = '', prefixText] = text.trim().split('/');
  const ip = parseIp(address);
  if (!ip) throw new Error(`not an IP address or CIDR: "${text}"`);
  const max = ip.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) throw new Error(`bad prefix length in CIDR "${text}"`);
  return { ...ip, prefix, text: text.trim() };
}

/** True when `ip` lies in `cidr`; families never match each other (IPv4-mapped is its own range). */
export function inCidr(ip: IpBytes, cidr: Cidr): boolean {
  if (ip.family !== cidr.family) return false;
  let bits = cidr.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((ip.bytes[i] ?? 0) & mask) !== ((cidr.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}
