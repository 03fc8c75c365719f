import { validation } from '../errors.js';
import { httpUrl } from '../domain/fields.js';
import { fail, type Result } from '../result.js';

/**
 * Callers name the pages our e-mails and SMS link to (resetPageLink, loginPageLink, ...). Accepting any
 * address would let anyone make us mail a victim a genuine reset token pointing at an attacker's page,
 * so only the configured origins are allowed (e.g. `https://app.stormhook.example`).
 */
export class LinkPolicy {
  private readonly origins: ReadonlySet<string>;

  constructor(allowedOrigins: readonly string[]) {
    this.origins = new Set(allowedOrigins.map((origin) => new URL(origin).origin));
  }

  check(field: string, raw: unknown): Result<URL> {
    const url = httpUrl(field, raw);
    if (!url.ok) return url;
    if (!this.origins.has(url.value.origin))
      return fail(validation(field, `must be a page of an allowed origin (${[...this.origins].join(', ') || 'none configured'})`));
    return url;
  }
}

/** The page address with `params` added to its query (existing parameters of the page are kept). */
export function withParams(url: URL, params: Record<string, string>): string {
  const out = new URL(url.href);
  for (const [name, value] of Object.entries(params)) out.searchParams.set(name, value);
  return out.href;
}
