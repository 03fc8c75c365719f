import got, { type Agents } from 'got';
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
  return error instanceof BlockedAddressError || (error as { code?: unknown }).code === 'ERR_BLOCKED_ADDRESS' || /DNS lookup .* is not allowed/.test(error.message);
}

/**
 * Sends callbacks with got: no got retries (ours live in the database), redirects never followed,
 * one timeout for the whole attempt, and the response body read only up to the limit so that a
 * receiver answering gigabytes costs nothing.
 */
export class GotWebhookSender implements HttpSender {
  private readonly agent: Agents;
  private readonly lookup: ReturnType<typeof policyLookup>;

  constructor(private readonly options: GotSenderOptions) {
    this.agent = createFilteringAgents(options.policy, options.maxSocketsPerHost);
    this.lookup = policyLookup(options.policy);
  }

  async send(request: OutboundRequest, signal?: AbortSignal): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    const host = new URL(request.url).hostname;
    const literal = parseIp(host);
    if (literal) {
      const verdict = this.options.policy.check(host.replace(/^\[|\]$/g, ''));
      if (!verdict.allowed) return { kind: 'error', message: new BlockedAddressError(host, verdict.reason).message, blocked: true, timedOut: false, durationMs: elapsed() };
    }
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: SendOutcome): void => {
        if (settled) return;
        settled = true;
        resolve(outcome);
      };
      const stream = got.stream(request.url, {
        method: request.method as 'POST',
        headers: { 'user-agent': this.options.userAgent, ...request.headers },
        body: request.body,
        agent: this.agent,
        dnsLookup: this.lookup as never,
        timeout: { request: request.timeoutMs },
        retry: { limit: 0 },
        followRedirect: false,
        throwHttpErrors: false,
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
        const message = timedOut ? `timed out after ${request.timeoutMs} ms` : blocked ? `refused by SSRF policy: ${error.message.replace(/^refused by SSRF policy: /, '')}` : error.message;
        finish({ kind: 'error', message, blocked, timedOut, durationMs: elapsed() });
      });
    });
  }

  /** Closes idle keep-alive sockets (at shutdown). */
  close(): void {
    (this.agent.http as { destroy?: () => void } | undefined)?.destroy?.();
    (this.agent.https as { destroy?: () => void } | undefined)?.destroy?.();
  }
}
