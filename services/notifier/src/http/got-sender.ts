import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
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

/** What the sender needs of a request in flight to end it when its signal aborts. */
interface Abortable {
  destroy(error?: Error): void;
}

/** The error an aborted request ends with: as got's own, a timeout when the signal's reason is one. */
function abortError(signal: AbortSignal): Error {
  const reason = signal.reason as { name?: unknown } | undefined;
  if (reason?.name === 'TimeoutError') return Object.assign(new Error('the request timed out (signal)'), { code: 'ETIMEDOUT' });
  return Object.assign(new Error('This operation was aborted.'), { name: 'AbortError', code: 'ERR_ABORTED' });
}

/**
 * node's http.request, handed only the options got set. got passes some 35 native options, most of
 * them undefined (TLS settings left at their defaults, http2 fields), and node copies the whole
 * object several times per request (ClientRequest, Agent.addRequest): about 50 µs of CPU per request
 * in the delivery bench's sender. An undefined option is node's default, so leaving it out changes
 * nothing the request does.
 */
function leanRequest(url: URL, options: Record<string, unknown>, callback?: (res: IncomingMessage) => void): ClientRequest {
  const lean: Record<string, unknown> = {};
  for (const key in options) if (options[key] !== undefined) lean[key] = options[key];
  return (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, lean, callback);
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
  /**
   * The requests in flight under each signal, ended together by one listener when it aborts. Handed
   * to got, a signal gets a listener per request, and every addEventListener walks the listeners
   * already there: with hundreds of attempts in flight under the worker's one stop signal that walk
   * cost more CPU than the signing (profile of the delivery bench).
   */
  private readonly inFlight = new WeakMap<AbortSignal, Set<Abortable>>();

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
      request: leanRequest as never,
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

  /** The requests in flight under `signal`, watched by one abort listener. */
  private watched(signal: AbortSignal): Set<Abortable> {
    let streams = this.inFlight.get(signal);
    if (!streams) {
      const watching = new Set<Abortable>();
      signal.addEventListener(
        'abort',
        () => {
          const error = abortError(signal);
          for (const stream of watching) stream.destroy(error);
          watching.clear();
        },
        { once: true },
      );
      this.inFlight.set(signal, watching);
      streams = watching;
    }
    return streams;
  }

  async send(request: OutboundRequest, signal?: AbortSignal): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    const refusal = this.literalRefusal(request.url);
    if (refusal) return { kind: 'error', message: refusal, blocked: true, timedOut: false, durationMs: elapsed() };
    if (signal?.aborted) {
      const error = abortError(signal);
      return { kind: 'error', message: error.message, blocked: false, timedOut: (error as { code?: unknown }).code === 'ETIMEDOUT', durationMs: elapsed() };
    }
    const watching = signal ? this.watched(signal) : undefined;
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const stream = this.client.stream(request.url, {
        method: request.method as 'POST',
        headers: request.headers,
        body: request.body,
        timeout: this.timeout(request.timeoutMs),
      });
      watching?.add(stream);
      const finish = (outcome: SendOutcome): void => {
        if (settled) return;
        settled = true;
        watching?.delete(stream);
        resolve(outcome);
      };
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
