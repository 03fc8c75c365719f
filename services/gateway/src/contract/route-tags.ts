/**
 * The groups of the /v1 operations, in the order the OpenAPI document and /docs list them, with the
 * description each group's heading shows. A route names its group by key, so a new group does not
 * compile until it says what it holds.
 */
export const ROUTE_TAGS = {
  precipitations: 'Radar precipitation events and their polygons, by area, time and intensity.',
  thunderstorms: 'Thunderstorm cells with their track, severity and motion.',
  forecasts: 'Point forecasts: the current hourly values and the forecast grid.',
  'live weather': 'Lightning, thunderstorms and rain as they happen: a server-sent event stream of the plan geography.',
  'geometry alarms':
    'Alarms on a city, district or neighbourhood: lightning, thunderstorm and precipitation callbacks. Back-test one over the last 30 days before registering it.',
  'forecast alarms': 'Alarms on forecast thresholds, evaluated at 04:00 and 16:00 UTC. Back-test one over the last 30 days before registering it.',
  'point alarms':
    'Alarms on a point with a radius: lightning, thunderstorm and precipitation callbacks. Back-test one over the last 30 days before registering it.',
  webhooks: "The account's stored webhook: where callbacks go, how they authenticate, its signing secrets.",
  deliveries: 'Every callback attempt: list, inspect and redeliver.',
  'administrative areas': 'Countries, cities, districts and neighbourhoods with their identifiers and boundaries.',
  accounts: 'Accounts and their subscriptions (plan geography, services, quotas).',
  users: 'Users, their roles and status, invitations and passwords.',
  'api keys': 'API keys of machine users (role API_USER).',
  authentication: 'Login, token refresh and logout.',
  system: 'Health, probes and the OpenAPI and AsyncAPI documents.',
} as const satisfies Readonly<Record<string, string>>;

export type RouteTag = keyof typeof ROUTE_TAGS;
