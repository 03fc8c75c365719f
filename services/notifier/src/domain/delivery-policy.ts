import { fail, ok, validation, type Result } from './notifier-error.js';

/**
 * The retry rules of an endpoint (public `webhook.deliveryPolicy`). The incumbent never stated the
 * units; ours are fixed and named in every error: `timeout` in milliseconds (per attempt),
 * `maxRetries` in attempts after the first, `retryDelay` in seconds between attempts.
 */
export interface DeliveryPolicy {
  timeoutMs: number;
  maxRetries: number;
  retryDelaySeconds: number;
}

/** Inclusive bounds; operators may narrow or (for tests) widen them through configuration. */
export interface DeliveryPolicyBounds {
  timeoutMs: { min: number; max: number };
  maxRetries: { min: number; max: number };
  retryDelaySeconds: { min: number; max: number };
}

/**
 * 0.5-30 s per attempt keeps a worker slot bounded (Svix and Stripe stop at 15-30 s); 10 retries at up
 * to an hour apart cover a receiver that is down for most of a working day.
 */
export const DEFAULT_POLICY_BOUNDS: DeliveryPolicyBounds = {
  timeoutMs: { min: 500, max: 30_000 },
  maxRetries: { min: 0, max: 10 },
  retryDelaySeconds: { min: 1, max: 3_600 },
};

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = { timeoutMs: 5_000, maxRetries: 3, retryDelaySeconds: 10 };

/** The public field names, so that errors speak the caller's language. */
const FIELDS = {
  timeoutMs: { path: 'webhook.deliveryPolicy.timeout', unit: 'milliseconds' },
  maxRetries: { path: 'webhook.deliveryPolicy.maxRetries', unit: 'retries' },
  retryDelaySeconds: { path: 'webhook.deliveryPolicy.retryDelay', unit: 'seconds' },
} as const;

/** Input fields may be absent (the default applies); present ones must be integers within bounds. */
export function validateDeliveryPolicy(
  input: Partial<DeliveryPolicy> | undefined,
  bounds: DeliveryPolicyBounds = DEFAULT_POLICY_BOUNDS,
): Result<DeliveryPolicy> {
  const policy: DeliveryPolicy = { ...DEFAULT_DELIVERY_POLICY };
  for (const key of Object.keys(FIELDS) as (keyof DeliveryPolicy)[]) {
    const value = input?.[key];
    if (value === undefined) continue;
    const { path, unit } = FIELDS[key];
    const { min, max } = bounds[key];
    if (!Number.isInteger(value) || value < min || value > max) {
      return fail(validation(path, `must be an integer between ${min} and ${max} ${unit}`));
    }
    policy[key] = value;
  }
  return ok(policy);
}
