import type { RequestHandler } from 'express';
import { authenticatedPrincipal } from '../http/auth-state.js';
import type { HealthPort, HealthReport } from './health-port.js';

/** The health checks' paths: probes poll them every few seconds, so they are not traced (app.ts). */
export const HEALTH_PATHS: readonly string[] = ['/v1/health', '/v1/health/live', '/v1/health/ready'];

/** A failing probe must not turn the health answer into a 500: it means "down". */
async function safeCheck(health: HealthPort): Promise<HealthReport> {
  try {
    const report = await health.check();
    const allUp = report.status === 'up' && Object.values(report.components).every((c) => c.status === 'up');
    return { ...report, status: allUp ? 'up' : 'down' };
  } catch (error) {
    return {
      status: 'down',
      components: { health: { status: 'down', detail: error instanceof Error ? error.message : String(error) } },
    };
  }
}

/**
 * What a caller is shown of a report: everything for ADMIN (identified when it sends its
 * credentials); anyone else gets the status alone (and the data-source notice, which is for
 * everyone), since component names, addresses and failure details map the deployment for an attacker.
 */
function reportFor(report: HealthReport, isAdmin: boolean): HealthReport | Omit<HealthReport, 'components'> {
  if (isAdmin) return report;
  return { status: report.status, ...(report.dataSource ? { dataSource: report.dataSource } : {}) };
}

/**
 * `/v1/health` reports every component to ADMIN, the bare status to anyone else, and is 503 when any
 * is down (the stack's own view). `health` should be a CachedHealth: the route is public.
 * `/v1/health/ready` decides whether this gateway instance takes traffic, so it follows only
 * `readiness`: what every request needs (identity, for authentication, and the gateway's own Kafka
 * and database). A backing service that is down makes its own routes answer 503; taking every gateway
 * out of rotation for it would turn one service's outage into a total one. Without `readiness`,
 * every component counts.
 */
export function healthHandlers(health: HealthPort, readiness?: readonly string[]): { full: RequestHandler; live: RequestHandler; ready: RequestHandler } {
  return {
    full: async (req, res) => {
      const report = await safeCheck(health);
      res
        .status(report.status === 'up' ? 200 : 503)
        .set('Cache-Control', 'no-store')
        .json(reportFor(report, authenticatedPrincipal(req)?.role === 'ADMIN'));
    },
    live: (_req, res) => {
      res.status(200).set('Cache-Control', 'no-store').json({ status: 'up' });
    },
    ready: async (_req, res) => {
      const report = await safeCheck(health);
      const required = readiness ?? Object.keys(report.components);
      // A required component the report does not mention counts as down, as does a failed probe.
      const down = required.filter((name) => report.components[name]?.status !== 'up');
      const ready = readiness ? down.length === 0 : report.status === 'up';
      if (ready) res.status(200).set('Cache-Control', 'no-store').json({ status: 'up' });
      else res.status(503).set('Cache-Control', 'no-store').json({ status: 'down', down });
    },
  };
}
