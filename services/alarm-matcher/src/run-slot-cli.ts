/**
 * Operator command: evaluates one forecast delivery slot now, against the configured database,
 * Kafka, geo and notifier (the same environment as the service).
 *
 *   node services/alarm-matcher/dist/run-slot-cli.js --delivery MORNING [--date 2025-09-14] [--rerun]
 *
 * Without --date the latest slot of that delivery that is due is run. A slot that was evaluated
 * already is left alone unless --rerun is given; a rerun sends new notifications (new ids).
 * Prints the outcome as JSON; exits 1 on a bad argument or a failure.
 */
import { parseArgs } from 'node:util';
import { createLogger } from '@stormhook/logger';
import { startPlatform } from '@stormhook/service-kit';
import { composeAlarmMatcher } from './compose.js';
import { loadConfig } from './config.js';
import { DELIVERIES, type Delivery } from './domain/registration.js';
import { latestDueSlot, slotOn } from './forecast/slots.js';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { delivery: { type: 'string' }, date: { type: 'string' }, rerun: { type: 'boolean', default: false } },
  });
  const delivery = values.delivery?.toUpperCase();
  if (!delivery || !(DELIVERIES as readonly string[]).includes(delivery)) {
    process.stderr.write('usage: run-slot-cli --delivery MORNING|EVENING [--date YYYY-MM-DD] [--rerun]\n');
    return 1;
  }
  let dayMs: number | undefined;
  if (values.date !== undefined) {
    dayMs = /^\d{4}-\d{2}-\d{2}$/.test(values.date) ? Date.parse(`${values.date}T00:00:00Z`) : Number.NaN;
    if (!Number.isFinite(dayMs)) {
      process.stderr.write(`--date must be a UTC day as YYYY-MM-DD, got "${values.date}"\n`);
      return 1;
    }
  }
  const config = loadConfig();
  const logger = createLogger({ service: 'alarm-matcher-run-slot', level: config.LOG_LEVEL });
  const platform = await startPlatform('alarm-matcher', config, { logger });
  try {
    const parts = await composeAlarmMatcher(platform, config);
    try {
      // Slots evaluate from memory, as in the service: load what a start loads first.
      await parts.loadMemory();
      const slot = dayMs === undefined ? latestDueSlot(delivery as Delivery, parts.clock.now()) : slotOn(delivery as Delivery, dayMs);
      const outcome = await parts.slots.run(slot, { rerun: values.rerun });
      process.stdout.write(`${JSON.stringify(outcome)}\n`);
      if (!outcome.evaluated) process.stderr.write(`slot ${slot.id} was not evaluated: it ran already or is running now (use --rerun to run it again)\n`);
      return 0;
    } finally {
      parts.close();
    }
  } finally {
    await platform.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`run-slot failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
