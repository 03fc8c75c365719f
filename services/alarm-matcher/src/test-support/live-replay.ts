import { createLogger } from '@stormhook/logger';
import { weatherV1 } from '@stormhook/proto';
import { toForecastChunk, toRain, toStorm, toStrike, type Decoded } from '../decoding/weather-decoding.js';
import { DELIVERIES, isRealtime, type Registration } from '../domain/registration.js';
import { DAY_MS, utcDay } from '../forecast/daily.js';
import { cellsOfChunk } from '../forecast/forecast-chunk.js';
import { ForecastRegistrations } from '../forecast/forecast-registrations.js';
import { LatestForecastCells } from '../forecast/latest-cells.js';
import { slotOn, type Slot } from '../forecast/slots.js';
import { Grid } from '../geometry/grid.js';
import { RegistrationIndex } from '../matching/registration-index.js';
import { TrackMemory } from '../motion/track-memory.js';
import type { Notification } from '../payloads/notification.js';
import type { AlarmPublisher } from '../ports/alarm-publisher.js';
import type { GeoPort } from '../ports/geo-port.js';
import type { HistoryKind } from '../ports/weather-history.js';
import { AreaShapes, areaRefOf } from '../usecases/index/area-shapes.js';
import { NotificationDispatcher } from '../usecases/live/dispatcher.js';
import { LightningEpisodes } from '../usecases/live/lightning-episodes.js';
import { LightningMatcher } from '../usecases/live/lightning-matcher.js';
import { ForecastSlotRunner } from '../usecases/live/slot-runner.js';
import { LifecycleSweeper } from '../usecases/live/sweeper.js';
import { TrackedEventMatcher } from '../usecases/live/tracked-matcher.js';
import { ManualClock } from './manual-clock.js';
import { MemoryJobLock, MemoryLedger, MemoryLightningActivityStore, MemorySlotLedger, MemoryTrackedStateStore } from './memory-ports.js';

/** One weather event as published on its topic, and when the live path saw it. */
export interface ReplayRecord {
  kind: HistoryKind;
  message: weatherV1.LightningEvent | weatherV1.ThunderstormEvent | weatherV1.PrecipitationEvent | weatherV1.ForecastEvent;
  ingestedMs: number;
}

/** The live path's settings (config.ts names in comments). */
export interface LiveSettings {
  quietMs: number;
  persistMs: number;
  graceMs: number;
  precipitationExpiryMs: number;
  maxAgeMs: number;
  sweepIntervalMs: number;
  maxCellDistanceM: number;
}

/** A published notification and the time it was published. */
export interface Published {
  atMs: number;
  notification: Notification;
}

class TimedPublisher implements AlarmPublisher {
  readonly published: Published[] = [];
  async publish(notifications: readonly Notification[], triggeredAtMs: number): Promise<void> {
    for (const notification of notifications) this.published.push({ atMs: triggeredAtMs, notification });
  }
}

/** The value as the consumer gets it: encoded on the topic, decoded by the topic's codec. */
function onTheWire<T>(codec: { encode(m: T): Uint8Array; decode(b: Uint8Array): T }, message: unknown): T {
  return codec.decode(codec.encode(message as T));
}

function value<T>(decoded: Decoded<T>): T {
  if (!decoded.ok) throw new Error(decoded.reason);
  return decoded.value;
}

/**
 * Runs the LIVE matcher classes (the matchers, the sweeper, the slot runner, the dispatcher) over the
 * records with the registration in place, on in-memory ports and a manual clock set to each record's
 * ingestion time, the sweeper run at every tick of its interval and the slots at their times; answers
 * what was published. The reference the back-test is held against.
 */
export async function replayLive(
  registration: Registration,
  records: readonly ReplayRecord[],
  window: { fromMs: number; toMs: number },
  settings: LiveSettings,
  geo: GeoPort,
): Promise<Published[]> {
  const clock = new ManualClock(window.fromMs);
  const publisher = new TimedPublisher();
  const dispatcher = new NotificationDispatcher(new MemoryLedger(), publisher, clock);
  const grid = new Grid();
  const index = new RegistrationIndex(grid);
  const shapes = new AreaShapes(geo, grid);
  const logger = createLogger({ service: 'live-replay', level: 'silent' });
  const activity = new MemoryLightningActivityStore();
  const episodes = new LightningEpisodes(activity, settings.quietMs, settings.persistMs);
  const ringEpisodes = new LightningEpisodes(new MemoryLightningActivityStore(), settings.quietMs, settings.persistMs);
  const states = new MemoryTrackedStateStore();
  const lightning = new LightningMatcher({ index, episodes, ringEpisodes, dispatcher, clock, quietMs: settings.quietMs, maxAgeMs: settings.maxAgeMs });
  const tracked = new TrackedEventMatcher({
    index,
    states,
    dispatcher,
    clock,
    tracks: new TrackMemory(),
    thunderstormGraceMs: settings.graceMs,
    precipitationExpiryMs: settings.precipitationExpiryMs,
  });
  const sweeper = new LifecycleSweeper({
    index,
    states,
    activity,
    episodes,
    dispatcher,
    clock,
    quietMs: settings.quietMs,
    logger,
    lock: new MemoryJobLock(),
    intervalMs: settings.sweepIntervalMs,
  });
  const alarms = new ForecastRegistrations();
  const cells = new LatestForecastCells();
  const slots = new ForecastSlotRunner({
    registrations: alarms,
    cells,
    slots: new MemorySlotLedger(),
    shapes,
    dispatcher,
    clock,
    logger,
    instanceId: 'replay',
    leaseMs: 600_000,
    lateAfterMs: 600_000,
    maxCellDistanceM: settings.maxCellDistanceM,
  });
  if (isRealtime(registration)) {
    if (registration.kind === 'GEOMETRY') await shapes.ensure([areaRefOf(registration.area)]);
    index.upsert(registration, shapes.watchedArea(registration)!);
  } else {
    if (registration.boundary.type === 'ADMINISTRATIVE') await shapes.ensure([{ level: 'DISTRICT', id: registration.boundary.districtId }]);
    alarms.upsert(registration);
  }
  const due: Slot[] = [];
  for (let day = utcDay(window.fromMs); day < window.toMs; day += DAY_MS) {
    for (const delivery of DELIVERIES) {
      const slot = slotOn(delivery, day);
      if (slot.timeMs >= window.fromMs && slot.timeMs < window.toMs) due.push(slot);
    }
  }
  due.sort((a, b) => a.timeMs - b.timeMs);
  let tick = Math.ceil(window.fromMs / settings.sweepIntervalMs) * settings.sweepIntervalMs;
  const until = async (ms: number, inclusive: boolean) => {
    for (; inclusive ? tick <= ms : tick < ms; tick += settings.sweepIntervalMs) {
      while (due.length > 0 && due[0]!.timeMs < tick) await runSlot(due.shift()!);
      clock.set(tick);
      await sweeper.sweep();
    }
    while (due.length > 0 && (inclusive ? due[0]!.timeMs <= ms : due[0]!.timeMs < ms)) await runSlot(due.shift()!);
  };
  const runSlot = async (slot: Slot) => {
    clock.set(slot.timeMs);
    await slots.run(slot);
  };
  for (const record of records) {
    await until(record.ingestedMs, true);
    clock.set(record.ingestedMs);
    if (record.kind === 'LIGHTNING') await lightning.handle(value(toStrike(onTheWire(weatherV1.LightningEvent, record.message))));
    else if (record.kind === 'THUNDERSTORM') await tracked.handleStorm(value(toStorm(onTheWire(weatherV1.ThunderstormEvent, record.message))));
    else if (record.kind === 'PRECIPITATION') await tracked.handleRain(value(toRain(onTheWire(weatherV1.PrecipitationEvent, record.message))));
    else cells.apply(cellsOfChunk(value(toForecastChunk(onTheWire(weatherV1.ForecastEvent, record.message)))));
  }
  await until(window.toMs, false);
  await dispatcher.drain();
  return publisher.published;
}
