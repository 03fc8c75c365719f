import ipaddr from 'ipaddr.js';

/**
 * The key per-address limits (failed-login lockout) count under. An IPv4 client is its address; an
 * IPv6 client is its /64, because one subscriber is usually handed a whole /64 and can take a fresh
 * address from it for every request. IPv4-mapped IPv6 (::ffff:a.b.c.d, what a dual-stack socket
 * reports) is the IPv4 address it carries. Anything that is not an address counts as itself; no
 * address at all counts as 'unknown'. Identity's failed-login lockout and the gateway's rate limits
 * both key by it, so the two agree on who "one client" is.
 */
export function addressLimitKey(address: string | undefined): string {
  const text = (address ?? '').trim();
  if (!text) return 'unknown';
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return text;
  // ipaddr.js also reads the old shorthand forms (127.1, 0x7f.0.0.1); only the dotted quad counts as IPv4.
  if (ipaddr.parse(bare).kind() === 'ipv4' && !ipaddr.IPv4.isValidFourPartDecimal(bare)) return text;
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${ipaddr.IPv6.parse(`${parts.map((p) => p.toString(16)).join(':')}::`).toString()}/64`;
}
