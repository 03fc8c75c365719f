import { accountRoutes } from './accounts.js';
import { alarmRegistrationRoutes } from './alarms.js';
import { apiKeyRoutes } from './api-keys.js';
import { areaRoutes } from './areas.js';
import { authRoutes } from './auth.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { streamRoutes } from './stream.js';
import { systemRoutes } from './system.js';
import { weatherRoutes } from './weather.js';
import { deliveryRoutes, webhookRoutes } from './webhooks.js';

/** The whole /v1 surface, one entry per operation. */
export const ROUTES: readonly RouteSpec[] = [
  ...weatherRoutes,
  ...streamRoutes,
  ...alarmRegistrationRoutes,
  ...webhookRoutes,
  ...deliveryRoutes,
  ...areaRoutes,
  ...accountRoutes,
  ...apiKeyRoutes,
  ...authRoutes,
  ...systemRoutes,
];

const isParam = (segment: string): boolean => segment.startsWith('{');

/**
 * Literal segments before parameters, so `/v1/users/me` is tried before `/v1/users/{userId}` and
 * `/v1/alarms/forecasts/get-by-id/x` before `/v1/alarms/forecasts/{countryCode}/cities`.
 */
export function bySpecificity(a: RouteSpec, b: RouteSpec): number {
  const left = a.path.split('/');
  const right = b.path.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const l = isParam(left[i] ?? '');
    const r = isParam(right[i] ?? '');
    if (l !== r) return l ? 1 : -1;
  }
  return 0;
}

/** OpenAPI template to express 5 pattern: `{userId}` becomes `:userId`. */
export function expressPath(template: string): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}
