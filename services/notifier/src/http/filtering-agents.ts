import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { BlockedAddressError, type SsrfPolicy } from '../security/ssrf-policy.js';

export interface FilteringAgents {
  http: RequestFilteringHttpAgent;
  https: RequestFilteringHttpsAgent;
}

/**
 * request-filtering-agent compares bare addresses as strings and CIDRs with ipaddr.js, which warns on
 * every cross-family comparison; single-host entries are therefore handed over as bare addresses.
 */
function agentAllowList(policy: SsrfPolicy): string[] {
  return policy.allowList.map((cidr) => (cidr.prefix === (cidr.family === 4 ? 32 : 128) ? (cidr.text.split('/')[0] ?? cidr.text) : cidr.text));
}

/**
 * Agents that refuse non-public addresses at connect time, for http AND https (reliability rules):
 * the check runs on the address actually dialled, after DNS, so a name that rebinds to an internal
 * address between registration and delivery is refused too. Keep-alive keeps a busy endpoint on a few
 * warm connections; a new connection is checked again.
 */
export function createFilteringAgents(policy: SsrfPolicy, maxSocketsPerHost = 50): FilteringAgents {
  const options = {
    keepAlive: true,
    maxSockets: maxSocketsPerHost,
    // As many idle sockets kept as may be busy: with fewer, a busy endpoint's sockets beyond the idle
    // limit are closed between two requests and every next request pays a new connection.
    maxFreeSockets: maxSocketsPerHost,
    allowPrivateIPAddress: false,
    allowMetaIPAddress: false,
    allowIPAddressList: agentAllowList(policy),
  };
  return { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A dns.lookup that applies OUR policy (the named ranges of ssrf-policy.ts) to every resolved address,
 * in addition to the agent's own check, so both lists must agree before a socket opens.
 */
export function policyLookup(policy: SsrfPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const verdict = policy.check(address);
        if (!verdict.allowed) return callback(new BlockedAddressError(hostname, verdict.reason) as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}
