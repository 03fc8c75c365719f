import type { Logger } from '@stormhook/logger';
import type { DeliveryStore } from '../ports/delivery-store.js';

/**
 * Counts the deliveries of each hold this instance still has to settle. A hold is released (its
 * document deleted by key, one write per batch of fresh deliveries) once every delivery in it has its
 * attempt recorded or its retry queued. One that failed or was abandoned keeps the hold: it expires
 * and the recovery of some instance queues what is unfinished, so nothing held is ever lost.
 */
export class HoldTracker {
  private readonly open = new Map<string, { pending: number; intact: boolean }>();

  constructor(
    private readonly store: DeliveryStore,
    private readonly logger: Logger,
  ) {}

  attach(holdId: string, size: number): void {
    if (!this.open.has(holdId)) this.open.set(holdId, { pending: size, intact: true });
  }

  settle(holdId: string, settled: boolean): void {
    const hold = this.open.get(holdId);
    if (!hold) return;
    hold.pending--;
    hold.intact &&= settled;
    if (hold.pending > 0) return;
    this.open.delete(holdId);
    if (!hold.intact) return;
    this.store.releaseHold(holdId).catch((error: unknown) => {
      // Harmless: the hold expires and its recovery finds every delivery in it settled.
      this.logger.warn({ err: error, holdId }, 'could not release a settled hold; it will expire');
    });
  }
}
