import { createLogger } from '@stormhook/logger';
import { QuotaMeter } from '../quota/quota-meter.js';
import { FakeShareTable } from './fake-quota-shares.js';

/** The abuse limits' counters as one replica alone has them (never synced): for unit specs. */
export function soloAbuseCounter(table = new FakeShareTable(), instance = 'solo', syncIntervalMs = 60_000): QuotaMeter {
  const logger = createLogger({ service: 'abuse-spec', level: 'silent' });
  return new QuotaMeter(table.port(instance), { syncIntervalMs, clockSkewMs: 0, learnFromReads: { lookbackMs: 3_600_000 }, logger });
}
