import type { Clock } from '../ports/clock.js';
import type { AttemptLogRepository, OneTimeTokenRepository, RefreshTokenRepository } from '../ports/repositories.js';

export interface HousekeepingPorts {
  attempts: AttemptLogRepository;
  refreshTokens: RefreshTokenRepository;
  oneTimeTokens: OneTimeTokenRepository;
  clock: Clock;
}

/**
 * Deletes expired counters and tokens. The embedded database has no TTL indexes, so the service runs
 * this on a timer (hourly is plenty; it is idempotent and safe on every replica at once).
 */
export class Housekeeping {
  constructor(private readonly ports: HousekeepingPorts) {}

  async purgeExpired(): Promise<{ attempts: number; refreshTokens: number; oneTimeTokens: number }> {
    const now = this.ports.clock.now();
    const [attempts, refreshTokens, oneTimeTokens] = await Promise.all([
      this.ports.attempts.purgeExpired(now),
      this.ports.refreshTokens.purgeExpired(now),
      this.ports.oneTimeTokens.purgeExpired(now),
    ]);
    return { attempts, refreshTokens, oneTimeTokens };
  }
}
