import type { HealthPort } from './health-port.js';

/**
 * Adds the data-source notice to every health report, so whoever looks at `/v1/health` of a local
 * stack learns that its weather is made up (the feed simulator) before trusting a number. Without a
 * notice the port is returned as it is: production reports carry no such field.
 */
export function withDataSource(health: HealthPort, notice: string | undefined): HealthPort {
  if (!notice) return health;
  return { check: async () => ({ ...(await health.check()), dataSource: notice }) };
}
