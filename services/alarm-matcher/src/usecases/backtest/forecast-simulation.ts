import type { WeatherRecord } from '../../decoding/history-records.js';
import { DELIVERIES, type ForecastRegistration } from '../../domain/registration.js';
import { DAY_MS, utcDay } from '../../forecast/daily.js';
import { cellsOfChunk } from '../../forecast/forecast-chunk.js';
import { CellLocator } from '../../forecast/forecast-cells.js';
import { LatestForecastCells } from '../../forecast/latest-cells.js';
import { cellsFor, slotAlarm } from '../../forecast/slot-alarm.js';
import { slotOn, type Slot } from '../../forecast/slots.js';
import type { PreparedPolygon } from '../../geometry/prepared-polygon.js';
import { fromNotification, type SimulatedCallback } from './simulated-callback.js';

export interface ForecastSettings {
  /** Farthest grid cell a POINT alarm (or a district without cells of its own) may use, metres. */
  maxCellDistanceM: number;
  /** Cells of runs issued this long before the newest held are forgotten (housekeeping). */
  retentionMs: number;
}

/** The slots of the registration's deliveries scheduled in [fromMs, toMs), in time order. */
export function slotsIn(registration: ForecastRegistration, fromMs: number, toMs: number): Slot[] {
  const slots: Slot[] = [];
  for (let day = utcDay(fromMs); day < toMs; day += DAY_MS) {
    for (const delivery of DELIVERIES) {
      if (!registration.delivery.includes(delivery)) continue;
      const slot = slotOn(delivery, day);
      if (slot.timeMs >= fromMs && slot.timeMs < toMs) slots.push(slot);
    }
  }
  return slots.sort((a, b) => a.timeMs - b.timeMs);
}

/**
 * The forecast slots of the window replayed: the latest forecast of each cell as the live path held
 * it at each slot (the records ingested before the slot, pruned as housekeeping prunes them), the
 * alarm decided by the matching core as the slot runner decides it, evaluated at the slot time.
 */
export function simulateForecast(
  records: readonly WeatherRecord[],
  registration: ForecastRegistration,
  districtShape: (districtId: number) => PreparedPolygon | undefined,
  settings: ForecastSettings,
  window: { fromMs: number; toMs: number },
): SimulatedCallback[] {
  const cells = new LatestForecastCells();
  const callbacks: SimulatedCallback[] = [];
  let next = 0;
  for (const slot of slotsIn(registration, window.fromMs, window.toMs)) {
    for (; next < records.length && records[next]!.ingestedMs < slot.timeMs; next++) {
      const record = records[next]!;
      if (record.kind === 'FORECAST') cells.apply(cellsOfChunk(record.chunk));
    }
    const newest = cells.newestIssueMs();
    if (newest !== undefined) cells.pruneIssuedBefore(newest - settings.retentionMs);
    const evaluated = cellsFor(registration, new CellLocator(cells.all()), districtShape, settings.maxCellDistanceM);
    if (!evaluated) continue;
    const alarm = slotAlarm(registration, evaluated, { slot, idScope: slot.id, late: false, evaluatedAtMs: slot.timeMs });
    if (alarm) callbacks.push(fromNotification(alarm.notification, slot.timeMs));
  }
  return callbacks;
}
