/** Time as the matcher sees it; tests inject a clock they move by hand (forecast slots, expiry, all-clear). */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
