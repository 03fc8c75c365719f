import got, { type Agents, type Got } from 'got';
import type { HttpSender, OutboundRequest, SendOutcome } from '../ports/http-sender.js';
import { parseIp } from '../security/ip.js';
import { BlockedAddressError, type SsrfPolicy } from '../security/ssrf-policy.js';
import { createFilteringAgents, policyLookup } from './filtering-agents.js';

export interface GotSenderOptions {
  policy: SsrfPolicy;
  /** Bytes of the response body kept; the rest is not even read. */
  maxBodyBytes: number;
  userAgent: string;
  maxSocketsPerHost?: number;
}

function isBlocked(error: Error): boolean {
  return (
    error instanceof BlockedAddressError || (error as { code?: unknown }).code === 'ERR_BLOCKED_ADDRESS' || /DNS lookup .* is not allowed/.test(error.message)
  );
}

/** URLs whose literal-address verdict is remembered; when full the memory starts again empty. */
const URL_VERDICT_LIMIT = 10_000;

/**
 * Sends callbacks with got: no got retries (ours live in the database), redirects never followed,
 * one timeout for the whole attempt, and the response body read only up to the limit so that a
 * receiver answering gigabytes costs nothing.
 *
 * Per-request cost matters at thousands of callbacks a second (the profile had got at a third of
 * the notifier's CPU): everything that does not change between requests lives in one extended got
 * instance made here (agents, lookup, no retries, no redirects, no decompression, so no
 * accept-encoding is sent and a receiver answers in plain text), each request passes only what is
 * its own, and the timeout objects are shared per value.
 */
export class GotWebhookSender implements HttpSender {
  private readonly agent: Agents;
  private readonly client: Got;
  private readonly timeouts = new Map<number, { request: number }>();
  /** Per URL: null when its host is a name (checked at connect time), else the literal address's refusal or ''. */
  private readonly literalVerdicts = new Map<string, string | null>();

  constructor(private readonly options: GotSenderOptions) {
    this.agent = createFilteringAgents(options.policy, options.maxSocketsPerHost);
    this.client = got.extend({
      agent: this.agent,
      dnsLookup: policyLookup(options.policy) as never,
      retry: { limit: 0 },
      followRedirect: false,
      throwHttpErrors: false,
      decompress: false,
      headers: { 'user-agent': options.userAgent },
    });
  }

  /** The refusal of a URL whose host is a literal address outside the policy, '' when allowed, null for a name. */
  private literalRefusal(url: string): string | null {
    let verdict = this.literalVerdicts.get(url);
    if (verdict === undefined) {
      const host = new URL(url).hostname;
      const checked = parseIp(host) ? this.options.policy.check(host.replace(/^\[|\]$/g, '')) : null;
      verdict = checked === null ? null : checked.allowed ? '' : new BlockedAddressError(host, checked.reason).message;
      if (this.literalVerdicts.size >= URL_VERDICT_LIMIT) this.literalVerdicts.clear();
      this.literalVerdicts.set(url, verdict);
    }
    return verdict;
  }

  private timeout(ms: number): { request: number } {
    let timeout = this.timeouts.get(ms);
    if (!timeout) {
      timeout = Object.freeze({ request: ms }) as { request: number };
      this.timeouts.set(ms, timeout);
    }
    return timeout;
  }

  async send(request: OutboundRequest, signal?: AbortSignal): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    const refusal = this.literalRefusal(request.url);
    if (refusal) return { kind: 'error', message: refusal, blocked: true, timedOut: false, durationMs: elapsed() };
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: SendOutcome): void => {
        if (settled) return;
        settled = true;
        resolve(outcome);
      };
      const stream = this.client.stream(request.url, {
        method: request.method as 'POST',
        headers: request.headers,
        body: request.body,
        timeout: this.timeout(request.timeoutMs),
        ...(signal ? { signal } : {}),
      });
      stream.on('response', (response: { statusCode: number; headers: Record<string, string | string[] | undefined> }) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const done = (): void =>
          finish({
            kind: 'response',
            statusCode: response.statusCode,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            bodyTruncated: truncated,
            durationMs: elapsed(),
          });
        stream.on('data', (chunk: Buffer) => {
          if (truncated) return;
          const room = this.options.maxBodyBytes - size;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            size += room;
            truncated = true;
            done();
            stream.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        stream.on('end', done);
      });
      stream.on('error', (error: Error) => {
        const timedOut = (error as { code?: unknown }).code === 'ETIMEDOUT' || error.name === 'TimeoutError';
        const blocked = isBlocked(error);
        const message = timedOut
          ? `timed out after ${request.timeoutMs} ms`
          : blocked
            ? `refused by SSRF policy: ${error.message.replace(/^refused by SSRF policy: /, '')}`
            : error.message;
        const code = (error as { code?: unknown }).code;
        finish({ kind: 'error', message, blocked, timedOut, ...(typeof code === 'string' ? { code } : {}), durationMs: elapsed() });
      });
    });
  }

  /** Closes idle keep-alive sockets (at shutdown). */
  close(): void {
    (this.agent.http as { destroy?: () => void } | undefined)?.destroy?.();
    (this.agent.https as { destroy?: () => void } | undefined)?.destroy?.();
  }
}
