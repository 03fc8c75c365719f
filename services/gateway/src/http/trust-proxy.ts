import { isIP } from 'node:net';

/**
 * The gateway's express `trust proxy` setting, from HTTP_TRUST_PROXY. Express (proxy-addr) then
 * sets `req.ip` to the first address in X-Forwarded-For, read from the right, that is not a trusted
 * proxy: a client cannot choose its own address by adding entries on the left. `true` (trust
 * everyone) is refused for that reason.
 *
 * Accepted: `false` (the socket's peer), a hop count 1-10, or a comma-separated list of addresses,
 * CIDRs and proxy-addr's names `loopback`, `linklocal` and `uniquelocal` (the private ranges, where
 * a cluster's ingress controller and load balancers live).
 */
export type TrustProxy = false | number | string[];

const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export function parseTrustProxy(text: string, variable = 'HTTP_TRUST_PROXY'): TrustProxy {
  const value = text.trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw new Error(`${variable} must be false, a hop count from 1 to 10, or a list of proxy addresses; got ${value}`);
    return hops;
  }
  if (value === 'true') {
    throw new Error(`${variable}=true would let any client choose its address in X-Forwarded-For; give the hop count or the proxies' addresses instead`);
  }
  return value.split(',').map((part) => {
    const entry = part.trim();
    if (NAMES.has(entry)) return entry;
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const valid = family !== 0 && extra === undefined && (prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= max));
    if (!valid) throw new Error(`${variable}: "${entry}" is not an address, a CIDR or one of ${[...NAMES].join(', ')}`);
    return entry;
  });
}
