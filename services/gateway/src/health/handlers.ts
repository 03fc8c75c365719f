import type { RequestHandler } from 'express';
import type { HealthPort, HealthReport } from './health-port.js';

/** A failing probe must not turn the health answer into a 500: it means "down". */
async function safeCheck(health: HealthPort): Promise<HealthReport> {
  try {
    const report = await health.check();
    const allUp = report.status === 'up' && Object.values(report.components).every((c) => c.status === 'up');
    return { status: allUp ? 'up' : 'down', components: report.components };
  } catch (error) {
    return {
      status: 'down',
      components: { health: { status: 'down', detail: error instanceof Error ? error.message : String(error) } },
    };
  }
}

export function healthHandlers(health: HealthPort): { full: RequestHandler; live: RequestHandler; ready: RequestHandler } {
  return {
    full: async (_req, res) => {
      const report = await safeCheck(health);
      res.status(report.status === 'up' ? 200 : 503).set('Cache-Control', 'no-store').json(report);
    },
    live: (_req, res) => {
      res.status(200).set('Cache-Control', 'no-store').json({ status: 'up' });
    },
    ready: async (_req, res) => {
      const report = await safeCheck(health);
      res.status(report.status === 'up' ? 200 : 503).set('Cache-Control', 'no-store').json({ status: report.status });
    },
  };
}
