import type { Delivery } from '../domain/registration.js';
import { DAY_MS, HOUR_MS, utcDay } from './daily.js';

/** Delivery hours in UTC (contract 2.4): MORNING 04:00, EVENING 16:00. */
export const SLOT_HOUR_UTC: Readonly<Record<Delivery, number>> = { MORNING: 4, EVENING: 16 };

export interface Slot {
  delivery: Delivery;
  /** UTC midnight of the slot's day ("today" of the evaluation), epoch ms. */
  dayMs: number;
  /** Scheduled time, epoch ms. */
  timeMs: number;
  /** e.g. 2025-09-14T04:00Z; the claim key and part of every notification id of the slot. */
  id: string;
}

export function slotOn(delivery: Delivery, anyTimeOfDayMs: number): Slot {
  const dayMs = utcDay(anyTimeOfDayMs);
  const timeMs = dayMs + SLOT_HOUR_UTC[delivery] * HOUR_MS;
  return { delivery, dayMs, timeMs, id: `${new Date(timeMs).toISOString().slice(0, 16)}Z` };
}

/** The latest slot of `delivery` scheduled at or before `nowMs`. */
export function latestDueSlot(delivery: Delivery, nowMs: number): Slot {
  const today = slotOn(delivery, nowMs);
  return today.timeMs <= nowMs ? today : slotOn(delivery, nowMs - DAY_MS);
}

/** The UTC days a registration evaluates in a slot: the slot's day and forecastDays - 1 more. */
export function evaluatedDays(slot: Slot, forecastDays: number): number[] {
  return Array.from({ length: forecastDays }, (_, i) => slot.dayMs + i * DAY_MS);
}
