import type { Logger } from '@stormhook/logger';
import type { identityV1 } from '@stormhook/proto';
import { AccessTokenVerifier } from './auth-jwt.js';

export interface TokenKeysPort {
  getTokenKeys(request: identityV1.GetTokenKeysRequest): Promise<identityV1.GetTokenKeysResponse>;
}

export interface TokenKeySourceOptions {
  /** Fewest milliseconds between two fetches caused by unknown key ids (a flood of forged kids). */
  minRefetchMs?: number;
  /** How often to try again while identity has not answered yet. */
  retryMs?: number;
}

/**
 * The keys that verify access tokens, fetched from identity (GetTokenKeys) at start and kept. A
 * token naming a key we do not know makes us ask again (identity rotated its key), at most once per
 * `minRefetchMs`. The gateway starts even while identity is down: it keeps trying in the background,
 * and requests with a token answer 503 until the keys are in.
 */
export class TokenKeySource {
  private verifier: AccessTokenVerifier | undefined;
  private inFlight: Promise<void> | undefined;
  private lastFetchAt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly minRefetchMs: number;
  private readonly retryMs: number;

  constructor(
    private readonly identity: TokenKeysPort,
    private readonly logger: Logger,
    options: TokenKeySourceOptions = {},
  ) {
    this.minRefetchMs = options.minRefetchMs ?? 30_000;
    this.retryMs = options.retryMs ?? 5_000;
  }

  /** Fetches once; on failure keeps retrying in the background instead of failing the start. */
  async start(): Promise<void> {
    await this.fetch();
    if (!this.verifier) this.scheduleRetry();
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  /** A verifier that knows `kid` if identity does; undefined while identity cannot be reached. */
  async verifierFor(kid: string | undefined): Promise<AccessTokenVerifier | undefined> {
    const known = this.verifier;
    if (known && (kid === undefined || known.hasKey(kid))) return known;
    if (!known || Date.now() - this.lastFetchAt >= this.minRefetchMs) await this.fetch();
    return this.verifier;
  }

  private fetch(): Promise<void> {
    this.inFlight ??= (async () => {
      this.lastFetchAt = Date.now();
      try {
        const answer = await this.identity.getTokenKeys({});
        this.verifier = new AccessTokenVerifier({ issuer: answer.issuer, audience: answer.audience, keys: answer.keys });
        this.logger.info({ kids: answer.keys.map((k) => k.kid), algorithm: answer.algorithm }, 'access token keys loaded from identity');
      } catch (error) {
        // Expected while identity starts: one line with the reason, not a stack per retry.
        this.logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'cannot load access token keys from identity yet');
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => {
      void this.fetch().then(() => {
        if (!this.verifier) this.scheduleRetry();
      });
    }, this.retryMs);
    this.retryTimer.unref();
  }
}
