/**
 * Operator command: evaluates one forecast delivery slot now, against the configured database,
 * Kafka, geo and notifier (the same environment as the service).
 *
 *   node services/alarm-matcher/dist/run-slot-cli.js --delivery MORNING [--date 2025-09-14] [--rerun]
 *     [--wait-for-run <forecastRunId> [--wait-s 60]]
 *
 * Without --date the latest slot of that delivery that is due is run. A slot that was evaluated
 * already is left alone unless --rerun is given; a rerun sends new notifications (new ids).
 * --wait-for-run holds the slot until the matcher's forecast store has a cell of that run (a late
 * model run: evaluate once it is in, instead of evaluating the old run and having to rerun), re-reading
 * the store every second for at most --wait-s seconds; when it never arrives nothing is claimed.
 * Prints the outcome as JSON; exits 1 on a bad argument or a failure, 2 when the awaited run did not arrive.
 */
import { parseArgs } from 'node:util';
import { createLogger } from '@stormhook/logger';
import { startPlatform } from '@stormhook/service-kit';
import { composeAlarmMatcher, type AlarmMatcherParts } from './compose.js';
import { loadConfig } from './config.js';
import { DELIVERIES, type Delivery } from './domain/registration.js';
import { latestDueSlot, slotOn } from './forecast/slots.js';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      delivery: { type: 'string' },
      date: { type: 'string' },
      rerun: { type: 'boolean', default: false },
      'wait-for-run': { type: 'string' },
      'wait-s': { type: 'string', default: '60' },
    },
  });
  const delivery = values.delivery?.toUpperCase();
  if (!delivery || !(DELIVERIES as readonly string[]).includes(delivery)) {
    process.stderr.write('usage: run-slot-cli --delivery MORNING|EVENING [--date YYYY-MM-DD] [--rerun] [--wait-for-run <forecastRunId> [--wait-s 60]]\n');
    return 1;
  }
  const waitS = Number(values['wait-s']);
  if (!Number.isInteger(waitS) || waitS < 1 || waitS > 3_600) {
    process.stderr.write(`--wait-s must be a whole number of seconds from 1 to 3600, got "${values['wait-s']}"\n`);
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
      const awaited = values['wait-for-run'];
      if (awaited !== undefined && !(await forecastRunHeld(parts, awaited, waitS * 1_000))) {
        process.stderr.write(`forecast run "${awaited}" did not reach the matcher's forecast store within ${waitS} s; the slot was not claimed\n`);
        return 2;
      }
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

/** Re-reads the stored forecast cells until one of `runId` is held, or `waitMs` has passed. */
async function forecastRunHeld(parts: AlarmMatcherParts, runId: string, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (parts.forecastCells.all().some((cell) => cell.runId === runId)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    parts.forecastCells.apply(await parts.forecasts.all());
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`run-slot failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
