import type { Logger } from '@stormhook/logger';
import { CellLocator } from '../../forecast/forecast-cells.js';
import type { ForecastRegistrations } from '../../forecast/forecast-registrations.js';
import type { LatestForecastCells } from '../../forecast/latest-cells.js';
import { cellsFor, slotAlarm, type EvaluatedCells } from '../../forecast/slot-alarm.js';
import { evaluatedDays, type Slot } from '../../forecast/slots.js';
import type { Notification } from '../../payloads/notification.js';
import type { Clock } from '../../ports/clock.js';
import type { SlotClaim, SlotLedger } from '../../ports/slot-ledger.js';
import type { AreaShapes } from '../index/area-shapes.js';
import type { NotificationDispatcher } from './dispatcher.js';

export interface SlotRunnerDeps {
  /** The forecast alarms held in memory (kept current by the registration broadcast). */
  registrations: ForecastRegistrations;
  /** The latest forecast of every grid cell, held in memory (kept current by weather.forecast.v1). */
  cells: Pick<LatestForecastCells, 'all'>;
  slots: SlotLedger;
  shapes: AreaShapes;
  dispatcher: NotificationDispatcher;
  clock: Clock;
  logger: Logger;
  /** Names this instance in slot claims. */
  instanceId: string;
  /** How long a claimed evaluation may run before another instance may take it over. */
  leaseMs: number;
  /** An evaluation starting later than this after the slot time is marked late. */
  lateAfterMs: number;
  /** Farthest grid cell a POINT alarm (or a district without cells of its own) may use, metres. */
  maxCellDistanceM: number;
}

export interface SlotOutcome {
  slotId: string;
  evaluated: boolean;
  late: boolean;
  registrations: number;
  notifications: number;
  forecastRunId?: string;
  /** Not evaluated because an earlier evaluation of the slot finished. */
  alreadyDone?: boolean;
}

/** Takeovers of a crashed evaluation are bounded; a slot failing this often needs a human. */
const MAX_ATTEMPTS = 5;
/** Notifications handed to the dispatcher at once, and how many such chunks may be on their way. */
const DISPATCH_CHUNK = 1_000;
const DISPATCH_CHUNKS_IN_FLIGHT = 4;

/**
 * Evaluates a forecast delivery slot, live: every forecast alarm of that delivery against the latest
 * stored forecast of its days, one notification per registration with at least one breached
 * threshold, each decided by the matching core (forecast/slot-alarm.ts). Exactly one evaluation per slot across instances and restarts: the evaluation is
 * claimed with a unique insert; a claim whose lease ran out (its instance died) is taken over by a
 * new attempt, whose notifications carry the same ids, so nothing already sent is sent again.
 */
export class ForecastSlotRunner {
  constructor(private readonly deps: SlotRunnerDeps) {}

  async run(slot: Slot, options: { rerun?: boolean } = {}): Promise<SlotOutcome> {
    const { slots, clock, instanceId, leaseMs, lateAfterMs } = this.deps;
    const now = clock.now();
    const late = now - slot.timeMs > lateAfterMs;
    const claims = await slots.claimsOf(slot.id);
    const regular = claims.filter((c) => !c.claimId.includes('#rerun-'));
    const notEvaluated: SlotOutcome = { slotId: slot.id, evaluated: false, late, registrations: 0, notifications: 0 };
    let claimId: string;
    let attempt: number;
    let idScope = slot.id;
    if (options.rerun) {
      attempt = claims.length - regular.length + 1;
      claimId = `${slot.id}#rerun-${attempt}`;
      idScope = claimId; // a rerun is asked for on purpose: new notifications, new ids
    } else {
      const last = regular[regular.length - 1];
      if (regular.some((c) => c.status === 'done')) return { ...notEvaluated, alreadyDone: true };
      if (last && last.leaseUntilMs > now) return notEvaluated;
      attempt = regular.length + 1;
      if (attempt > MAX_ATTEMPTS) {
        this.deps.logger.error({ slotId: slot.id, attempts: regular.length }, 'forecast slot failed too often; run it by hand (run-slot CLI)');
        return notEvaluated;
      }
      claimId = attempt === 1 ? slot.id : `${slot.id}#${attempt}`;
    }
    const claim: SlotClaim = {
      claimId,
      slotId: slot.id,
      delivery: slot.delivery,
      slotTimeMs: slot.timeMs,
      attempt,
      late,
      owner: instanceId,
      claimedAtMs: now,
      leaseUntilMs: now + leaseMs,
      status: 'running',
    };
    if (!(await slots.claim(claim))) return notEvaluated;
    this.deps.logger.info({ claimId, late }, 'evaluating forecast slot');
    const result = await this.evaluate(slot, idScope, late);
    await slots.finish(claimId, { finishedAtMs: clock.now(), ...result });
    this.deps.logger.info({ claimId, ...result }, 'forecast slot evaluated');
    return { slotId: claimId, evaluated: true, late, ...result };
  }

  private async evaluate(slot: Slot, idScope: string, late: boolean): Promise<{ registrations: number; notifications: number; forecastRunId?: string }> {
    const { cells, shapes, dispatcher, clock, logger, maxCellDistanceM } = this.deps;
    const registrations = this.deps.registrations.forDelivery(slot.delivery);
    const districts = registrations.flatMap((r) => (r.boundary.type === 'ADMINISTRATIVE' ? [{ level: 'DISTRICT' as const, id: r.boundary.districtId }] : []));
    // Throws while geo is down: the claim's lease then runs out and a later attempt takes over.
    await shapes.ensure(districts);
    const locator = new CellLocator(cells.all());
    let batch: Notification[] = [];
    let notifications = 0;
    let newestRun: { runId: string; issueMs: number } | undefined;
    // Evaluation goes on while earlier chunks are claimed and published; the dispatcher turns the
    // chunks in flight into full ledger and broker batches. A failed chunk fails the evaluation.
    const inFlight = new Set<Promise<unknown>>();
    let failure: { error: unknown } | undefined;
    let dispatchWaitMs = 0;
    const flush = async (): Promise<void> => {
      const chunk = batch;
      batch = [];
      if (chunk.length === 0) return;
      const sending: Promise<unknown> = dispatcher.dispatch(chunk).then(
        (sent) => (notifications += sent.length),
        (error: unknown) => (failure ??= { error }),
      );
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending));
      const waitStart = performance.now();
      while (inFlight.size >= DISPATCH_CHUNKS_IN_FLIGHT) await Promise.race(inFlight);
      dispatchWaitMs += performance.now() - waitStart;
      if (failure) throw failure.error;
    };
    // Many alarms share a district: its cells are looked up once per slot.
    const districtCells = new Map<number, EvaluatedCells | undefined>();
    const daysOf = new Map<number, number[]>();
    const districtShape = (districtId: number) => shapes.get({ level: 'DISTRICT', id: districtId });
    for (const registration of registrations) {
      const boundary = registration.boundary;
      let evaluated: EvaluatedCells | undefined;
      if (boundary.type === 'ADMINISTRATIVE') {
        if (!districtCells.has(boundary.districtId)) districtCells.set(boundary.districtId, cellsFor(registration, locator, districtShape, maxCellDistanceM));
        evaluated = districtCells.get(boundary.districtId);
      } else {
        evaluated = cellsFor(registration, locator, districtShape, maxCellDistanceM);
      }
      if (!evaluated) {
        logger.warn({ registrationId: registration.registrationId }, 'no forecast grid cell for the registration; skipped in this slot');
        continue;
      }
      let days = daysOf.get(registration.forecastDays);
      if (!days) daysOf.set(registration.forecastDays, (days = evaluatedDays(slot, registration.forecastDays)));
      const alarm = slotAlarm(registration, evaluated, { slot, idScope, late, evaluatedAtMs: clock.now() }, days);
      if (!alarm) continue;
      if (alarm.run && (!newestRun || alarm.run.issueMs > newestRun.issueMs)) newestRun = alarm.run;
      batch.push(alarm.notification);
      if (batch.length >= DISPATCH_CHUNK) await flush();
    }
    await flush();
    const tailStart = performance.now();
    await Promise.all(inFlight);
    if (failure) throw failure.error;
    // Where a slow slot spent its time: evaluating, or waiting for claims and publishes.
    logger.info(
      { slotId: slot.id, dispatchWaitMs: Math.round(dispatchWaitMs), dispatchTailMs: Math.round(performance.now() - tailStart) },
      'forecast slot dispatch timings',
    );
    return { registrations: registrations.length, notifications, ...(newestRun ? { forecastRunId: newestRun.runId } : {}) };
  }
}
