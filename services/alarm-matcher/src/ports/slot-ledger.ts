import type { Delivery } from '../domain/registration.js';

export interface SlotClaim {
  /** Slot id plus attempt: `2025-09-14T04:00Z`, `2025-09-14T04:00Z#2`, `...#rerun-1`. */
  claimId: string;
  slotId: string;
  delivery: Delivery;
  slotTimeMs: number;
  attempt: number;
  late: boolean;
  owner: string;
  claimedAtMs: number;
  leaseUntilMs: number;
  status: 'running' | 'done';
  finishedAtMs?: number;
  registrations?: number;
  notifications?: number;
  forecastRunId?: string;
}

/** Forecast slot evaluations, claimed with unique inserts so exactly one instance runs each. */
export interface SlotLedger {
  /** True when this call inserted the claim. */
  claim(claim: SlotClaim): Promise<boolean>;
  /** Every claim of a slot (its attempts and reruns). */
  claimsOf(slotId: string): Promise<SlotClaim[]>;
  finish(claimId: string, result: { finishedAtMs: number; registrations: number; notifications: number; forecastRunId?: string }): Promise<void>;
}
