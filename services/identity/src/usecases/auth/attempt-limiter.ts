import type { AttemptLogRepository } from '../../ports/repositories.js';
import { randomId } from '../../security/secrets.js';

export interface AttemptPolicy {
  /** Attempts allowed within any window of `windowMs`. */
  limit: number;
  windowMs: number;
}

/** One thing being counted: `scope` names the rule (login-user, login-address), `subject` whom it counts. */
export interface AttemptSubject {
  scope: string;
  subject: string;
  policy: AttemptPolicy;
}

/** An admitted attempt; hand it back to {@link AttemptLimiter.forgive} when it should not count. */
export interface AttemptTicket {
  readonly ids: readonly string[];
  /** Attempts left per subject after this one, in input order. */
  readonly remaining: readonly number[];
}

export type AttemptOutcome = { limited: false; ticket: AttemptTicket } | { limited: true; retryAfterSeconds: number };

const keyOf = (s: AttemptSubject): string => `${s.scope}:${s.subject}`;

/**
 * Attempt limits over a shared log in the database, so every identity instance sees the same numbers
 * and a restart forgets nothing. The attempt is written BEFORE it is judged, then the log is counted:
 * the k-th of any number of parallel attempts sees at least k entries, so a burst of parallel guesses
 * gets at most `limit` through (checking first and writing after would let the whole burst in). A
 * refused attempt is taken out again, so hammering a locked subject does not extend the lock forever.
 * The window slides exactly (each entry expires on its own).
 */
export class AttemptLimiter {
  constructor(private readonly log: AttemptLogRepository) {}

  async attempt(subjects: readonly AttemptSubject[], now: Date): Promise<AttemptOutcome> {
    const entries = subjects.map((s) => ({ id: randomId(12), key: keyOf(s), at: now, expiresAt: new Date(now.getTime() + s.policy.windowMs) }));
    await this.log.add(entries);
    let waitMs = 0;
    const remaining: number[] = [];
    for (const s of subjects) {
      const { limit, windowMs } = s.policy;
      const times = await this.log.timesAfter(keyOf(s), new Date(now.getTime() - windowMs));
      remaining.push(Math.max(0, limit - times.length));
      if (times.length <= limit) continue;
      // Without our own entry (the newest), `others` are over the limit; the next attempt passes once
      // enough of the oldest have left the window.
      const others = times.slice(0, -1);
      const oldestThatMustLeave = others[others.length - limit] ?? now;
      waitMs = Math.max(waitMs, oldestThatMustLeave.getTime() + windowMs - now.getTime(), 1000);
    }
    if (waitMs > 0) {
      await this.log.remove(entries.map((e) => e.id));
      return { limited: true, retryAfterSeconds: Math.ceil(waitMs / 1000) };
    }
    return { limited: false, ticket: { ids: entries.map((e) => e.id), remaining } };
  }

  /** Takes an admitted attempt back out (a successful login is not a failure). */
  async forgive(ticket: AttemptTicket): Promise<void> {
    await this.log.remove(ticket.ids);
  }

  /** Forgets every attempt of the subjects (e.g. a user's failures once they signed in). */
  async clear(subjects: readonly AttemptSubject[]): Promise<void> {
    for (const s of subjects) await this.log.clear(keyOf(s));
  }
}
