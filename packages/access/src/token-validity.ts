/**
 * When a user's access tokens stop counting. Ending them (logout, password reset, a block) stores an
 * instant, and every access token issued before it is refused by the access check, long before its
 * own expiry. JWT `iat` counts whole seconds, so the instant is always a whole second and the rule
 * works in seconds on both sides:
 *
 * - ending tokens at T makes them valid from the second after T's second, so a token issued in the
 *   same second as the logout (iat = T's second) is refused with the rest;
 * - a token issued afterwards never carries an iat before that second ({@link issuedAtSeconds}), so
 *   signing in again in the same second as the logout gives a token that works.
 */

/** The instant from which access tokens count again after they were ended at `endedAt`. */
export function tokensValidFrom(endedAt: Date): Date {
  return new Date((Math.floor(endedAt.getTime() / 1000) + 1) * 1000);
}

/**
 * The `iat` of a token issued at `now` to a user whose tokens count from `validFrom`: at most a
 * second later than the clock says (within every verifier's tolerance), never before `validFrom`.
 */
export function issuedAtSeconds(now: Date, validFrom: Date | undefined): number {
  const seconds = Math.floor(now.getTime() / 1000);
  return validFrom ? Math.max(seconds, Math.ceil(validFrom.getTime() / 1000)) : seconds;
}

/** True when a token with this `iat` was issued before the user's tokens were last ended. */
export function issuedBeforeValidFrom(issuedAt: number, validFrom: Date | undefined): boolean {
  return validFrom !== undefined && issuedAt * 1000 < validFrom.getTime();
}
