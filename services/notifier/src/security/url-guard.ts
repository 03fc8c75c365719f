import { lookup } from 'node:dns/promises';
import { fail, ok, validation, type Result } from '../domain/notifier-error.js';
import type { DnsResolver } from '../ports/dns-resolver.js';
import { parseIp } from './ip.js';
import type { SsrfPolicy } from './ssrf-policy.js';
import type { CallbackUrlCheck } from '../domain/endpoint-input.js';

const MAX_URL_LENGTH = 2_048;
const FIELD = 'webhook.url';

export const systemResolver: DnsResolver = {
  async resolveAll(hostname) {
    return (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
  },
};

/**
 * Registration-time check of a callback URL, for early feedback. It is not the protection: a name can
 * resolve elsewhere later (DNS rebinding), so the sender checks the dialled address again at connect
 * time. A name that does not resolve now is accepted; the customer may create its DNS record later.
 */
export class UrlGuard implements CallbackUrlCheck {
  constructor(
    private readonly policy: SsrfPolicy,
    private readonly resolver: DnsResolver = systemResolver,
  ) {}

  async validate(raw: string | undefined): Promise<Result<string>> {
    const text = (raw ?? '').trim();
    if (text === '') return fail(validation(FIELD, 'is required'));
    if (text.length > MAX_URL_LENGTH) return fail(validation(FIELD, `must be at most ${MAX_URL_LENGTH} characters`));
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return fail(validation(FIELD, 'is not a valid URL'));
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail(validation(FIELD, 'must use http or https'));
    if (url.username !== '' || url.password !== '') return fail(validation(FIELD, 'must not contain credentials; use webhook.authentication'));
    if (url.hash !== '') return fail(validation(FIELD, 'must not contain a fragment'));
    if (url.hostname === '') return fail(validation(FIELD, 'must name a host'));

    const literal = parseIp(url.hostname);
    const addresses = literal ? [url.hostname.replace(/^\[|\]$/g, '')] : await this.resolve(url.hostname);
    for (const address of addresses) {
      const verdict = this.policy.check(address);
      if (!verdict.allowed) return fail(validation(FIELD, `points to a disallowed address (${verdict.reason})`));
    }
    return ok(url.toString());
  }

  private async resolve(hostname: string): Promise<string[]> {
    try {
      return await this.resolver.resolveAll(hostname);
    } catch {
      return [];
    }
  }
}
