import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { HttpSender, OutboundRequest, SendOutcome } from '../ports/http-sender.js';
import { parseIp } from '../security/ip.js';
import { BlockedAddressError, type SsrfPolicy } from '../security/ssrf-policy.js';
import { createFilteringAgents, policyLookup, type FilteringAgents } from './filtering-agents.js';

export interface WebhookSenderOptions {
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

/** The error an aborted request ends with: a timeout when the signal's reason is one. */
function abortError(signal: AbortSignal): Error {
  const reason = signal.reason as { name?: unknown } | undefined;
  if (reason?.name === 'TimeoutError') return Object.assign(new Error('the request timed out (signal)'), { code: 'ETIMEDOUT' });
  return Object.assign(new Error('This operation was aborted.'), { name: 'AbortError', code: 'ERR_ABORTED' });
}

/** The attempt's own timeout, told apart from every other way a request ends. */
const TIMED_OUT = 'ETIMEDOUT';

/** What is worked out once per webhook URL: its parsed form, and the literal address's refusal. */
interface Target {
  url: URL;
  /** null when the host is a name (checked at connect time, after DNS), else the refusal or ''. */
  refusal: string | null;
  request: typeof httpRequest;
  agent: FilteringAgents['http'] | FilteringAgents['https'];
}

/** URLs remembered; when full the memory starts again empty. */
const TARGET_LIMIT = 10_000;

/**
 * Sends callbacks with node:http on keep-alive agents that refuse non-public addresses at connect
 * time: no retries (ours live in the database), redirects never followed, one timeout for the whole
 * attempt, and the response body read only up to the limit, so a receiver answering gigabytes costs
 * nothing. Nothing asks for compression, so a receiver answers in plain text.
 *
 * This replaced got for webhooks (issue 27 item 3): in the delivery bench's profile got's own frames
 * took 280-293 µs of the notifier's ~500 µs of CPU per delivery, above node:http under it, and bound
 * one replica near 2,500 requests/s of a core. got gave the delivery path nothing node:http lacks:
 * its retries, redirects, decompression and hooks were all turned off. The SMS sender keeps got.
 */
export class NodeWebhookSender implements HttpSender {
  private readonly agents: FilteringAgents;
  private readonly lookup: ReturnType<typeof policyLookup>;
  private readonly targets = new Map<string, Target>();
  /**
   * The requests in flight under each signal, ended together by one listener when it aborts: every
   * addEventListener walks the listeners already there, and hundreds of attempts run under the
   * worker's one stop signal.
   */
  private readonly inFlight = new WeakMap<AbortSignal, Set<ClientRequest>>();

  constructor(private readonly options: WebhookSenderOptions) {
    this.agents = createFilteringAgents(options.policy, options.maxSocketsPerHost);
    this.lookup = policyLookup(options.policy);
  }

  private target(url: string): Target {
    let target = this.targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      const host = parsed.hostname;
      const checked = parseIp(host) ? this.options.policy.check(host.replace(/^\[|\]$/g, '')) : null;
      const refusal = checked === null ? null : checked.allowed ? '' : new BlockedAddressError(host, checked.reason).message;
      const https = parsed.protocol === 'https:';
      target = { url: parsed, refusal, request: https ? httpsRequest : httpRequest, agent: https ? this.agents.https : this.agents.http };
      if (this.targets.size >= TARGET_LIMIT) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }

  /** The requests in flight under `signal`, watched by one abort listener. */
  private watched(signal: AbortSignal): Set<ClientRequest> {
    let requests = this.inFlight.get(signal);
    if (!requests) {
      const watching = new Set<ClientRequest>();
      signal.addEventListener(
        'abort',
        () => {
          const error = abortError(signal);
          for (const request of watching) request.destroy(error);
          watching.clear();
        },
        { once: true },
      );
      this.inFlight.set(signal, watching);
      requests = watching;
    }
    return requests;
  }

  async send(request: OutboundRequest, signal?: AbortSignal): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    let target: Target;
    try {
      target = this.target(request.url);
    } catch (error) {
      return { kind: 'error', message: `invalid webhook URL: ${(error as Error).message}`, blocked: false, timedOut: false, durationMs: elapsed() };
    }
    if (target.refusal) return { kind: 'error', message: target.refusal, blocked: true, timedOut: false, durationMs: elapsed() };
    if (signal?.aborted) {
      const error = abortError(signal);
      return { kind: 'error', message: error.message, blocked: false, timedOut: (error as { code?: unknown }).code === TIMED_OUT, durationMs: elapsed() };
    }
    const watching = signal ? this.watched(signal) : undefined;
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const outgoing = target.request(target.url, {
        method: request.method,
        headers: { 'user-agent': this.options.userAgent, ...request.headers, 'content-length': Buffer.byteLength(request.body) },
        agent: target.agent,
        lookup: this.lookup as never,
      });
      const timer = setTimeout(
        () => outgoing.destroy(Object.assign(new Error(`timed out after ${request.timeoutMs} ms`), { code: TIMED_OUT })),
        request.timeoutMs,
      );
      watching?.add(outgoing);
      const finish = (outcome: SendOutcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        watching?.delete(outgoing);
        resolve(outcome);
      };
      const failed = (seen: Error): void => {
        // The reason the request was ended with (our timeout, the signal's abort) comes before what
        // the response saw of it (a bare "aborted" reset).
        const error = outgoing.errored ?? seen;
        const code = (error as { code?: unknown }).code;
        const timedOut = code === TIMED_OUT || error.name === 'TimeoutError';
        const blocked = isBlocked(error);
        const message = timedOut
          ? `timed out after ${request.timeoutMs} ms`
          : blocked
            ? `refused by SSRF policy: ${error.message.replace(/^refused by SSRF policy: /, '')}`
            : error.message;
        finish({ kind: 'error', message, blocked, timedOut, ...(typeof code === 'string' ? { code } : {}), durationMs: elapsed() });
      };
      outgoing.on('error', failed);
      outgoing.on('response', (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const done = (): void =>
          finish({
            kind: 'response',
            statusCode: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            bodyTruncated: truncated,
            durationMs: elapsed(),
          });
        response.on('data', (chunk: Buffer) => {
          if (truncated) return;
          const room = this.options.maxBodyBytes - size;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            size += room;
            truncated = true;
            done();
            // The rest is not read: the socket goes, not back to the pool with a body half-read.
            outgoing.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', done);
        response.on('error', failed);
        // A connection that closes before the body's end (a reset, our timeout) ends the attempt as
        // an error: the answer was not complete.
        response.on('close', () => {
          if (!response.complete) failed(Object.assign(new Error('the connection closed before the response ended'), { code: 'ECONNRESET' }));
        });
      });
      outgoing.end(request.body);
    });
  }

  /** Closes idle keep-alive sockets (at shutdown). */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
