import type { Logger } from '@stormhook/logger';
import { DELIVERIES } from '../../domain/registration.js';
import { latestDueSlot } from '../../forecast/slots.js';
import type { Clock } from '../../ports/clock.js';
import type { ForecastSlotRunner, SlotOutcome } from './slot-runner.js';

/**
 * Runs the MORNING (04:00 UTC) and EVENING (16:00 UTC) slots when due. Each tick looks at the latest
 * due slot of each delivery: one not evaluated yet runs now (after downtime: once, marked late);
 * one older than `maxLatenessMs` is left alone, because a newer slot is due by then anyway.
 */
export class ForecastScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SlotOutcome[]> | undefined;
  /** Slots known to be evaluated, so ticks do not ask the database again. */
  private readonly done = new Set<string>();

  constructor(
    private readonly runner: ForecastSlotRunner,
    private readonly clock: Clock,
    private readonly options: { intervalMs: number; maxLatenessMs: number; logger: Logger },
  ) {}

  /** One look at the due slots; concurrent calls share the run in progress. */
  tick(): Promise<SlotOutcome[]> {
    this.running ??= this.runDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async runDue(): Promise<SlotOutcome[]> {
    const outcomes: SlotOutcome[] = [];
    const now = this.clock.now();
    for (const delivery of DELIVERIES) {
      const slot = latestDueSlot(delivery, now);
      if (this.done.has(slot.id) || now - slot.timeMs > this.options.maxLatenessMs) continue;
      try {
        const outcome = await this.runner.run(slot);
        outcomes.push(outcome);
        if (outcome.evaluated || outcome.alreadyDone) this.done.add(slot.id);
      } catch (error) {
        this.options.logger.error({ err: error, slotId: slot.id }, 'forecast slot evaluation failed; a later tick retries once its lease runs out');
      }
    }
    return outcomes;
  }

  start(): void {
    const loop = () => {
      void this.tick().finally(() => {
        if (this.timer) this.timer = setTimeout(loop, this.options.intervalMs).unref();
      });
    };
    this.timer = setTimeout(loop, 0).unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }
}
