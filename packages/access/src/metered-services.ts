/**
 * The metered services a subscription grants, each with its own invocation limit. Stored in
 * subscriptions and counted by the gateway: renaming one needs a data migration.
 */
export const METERED_SERVICES = ['PRECIPITATION', 'THUNDERSTORM', 'FORECAST', 'ALARM_GEOMETRY', 'ALARM_FORECAST', 'ALARM_POINT', 'GEO'] as const;
export type MeteredService = (typeof METERED_SERVICES)[number];

export function isMeteredService(value: unknown): value is MeteredService {
  return typeof value === 'string' && (METERED_SERVICES as readonly string[]).includes(value);
}

/**
 * Reads a service name as operators and the incumbent's `apiServiceLimits[].serviceName` write it:
 * any case, `-` or `_`, singular or plural (`precipitations`, `alarm-point`). Anything else is
 * unknown rather than guessed, because a mis-mapped limit would silently meter the wrong endpoint.
 */
export function parseServiceName(raw: string): MeteredService | undefined {
  const name = raw.trim().toUpperCase().replace(/[-\s]/g, '_');
  if (isMeteredService(name)) return name;
  // Plurals as people write them: precipitations, alarm-points, alarm-geometries.
  const singulars = name.endsWith('IES') ? [`${name.slice(0, -3)}Y`, name.slice(0, -1)] : name.endsWith('S') ? [name.slice(0, -1)] : [];
  return singulars.find(isMeteredService);
}
