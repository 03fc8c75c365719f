import type { ErrorStatus } from '../contract/route-spec.js';

// The error statuses several route tables document alike.

/** Statuses of interface.md 7 for the subscription-checked weather operations. */
export const WEATHER_ERRORS: readonly ErrorStatus[] = [400, 401, 402, 403, 429, 500];
/** Authenticated operations on the caller's own resources: a foreign id answers 404 (OWASP API1). */
export const RESOURCE_ERRORS: readonly ErrorStatus[] = [400, 401, 403, 404, 500];
export const PUBLIC_ERRORS: readonly ErrorStatus[] = [400, 401, 429, 500];
