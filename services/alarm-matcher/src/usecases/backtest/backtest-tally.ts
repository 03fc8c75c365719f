import type { BacktestDay, BacktestSample, TypeCount } from './backtest-outcome.js';
import type { SimulatedCallback } from './simulated-callback.js';

const HOUR_MS = 3_600_000;
export const MAX_SAMPLES = 20;

const istanbulDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Istanbul', year: 'numeric', month: '2-digit', day: '2-digit' });
/** Istanbul days change on whole hours of UTC (no offset of the zone has minutes): one formatting per hour. */
const dayOfHour = new Map<number, string>();

/** The Europe/Istanbul calendar day of an instant, YYYY-MM-DD. */
export function istanbulDay(epochMs: number): string {
  const hour = Math.floor(epochMs / HOUR_MS);
  let day = dayOfHour.get(hour);
  if (day === undefined) {
    day = istanbulDate.format(new Date(hour * HOUR_MS));
    if (dayOfHour.size > 100_000) dayOfHour.clear();
    dayOfHour.set(hour, day);
  }
  return day;
}

/** Every Istanbul day of [fromMs, toMs), in order. */
export function daysOf(fromMs: number, toMs: number): string[] {
  const days: string[] = [];
  for (let hour = Math.floor(fromMs / HOUR_MS) * HOUR_MS; hour < toMs; hour += HOUR_MS) {
    const day = istanbulDay(Math.max(hour, fromMs));
    if (days[days.length - 1] !== day) days.push(day);
  }
  return days;
}

function countsOf(callbacks: Iterable<SimulatedCallback>): TypeCount[] {
  // By type, then stage: no joined key per callback (a district's month holds 100,000 strikes).
  const counts = new Map<string, Map<string, TypeCount>>();
  for (const { callbackType, stage } of callbacks) {
    let stages = counts.get(callbackType);
    if (!stages) counts.set(callbackType, (stages = new Map()));
    const held = stages.get(stage);
    if (held) held.callbacks++;
    else stages.set(stage, { callbackType, stage, callbacks: 1 });
  }
  return [...counts.values()]
    .flatMap((stages) => [...stages.values()])
    .sort((a, b) => a.callbackType.localeCompare(b.callbackType) || a.stage.localeCompare(b.stage));
}

/** Callbacks per Istanbul day of the window (every day, zeros included) and per type and stage. */
export function tally(callbacks: readonly SimulatedCallback[], fromMs: number, toMs: number): { days: BacktestDay[]; byType: TypeCount[] } {
  const perDay = new Map<string, SimulatedCallback[]>(daysOf(fromMs, toMs).map((day) => [day, []]));
  for (const callback of callbacks) perDay.get(istanbulDay(callback.atMs))?.push(callback);
  return {
    days: [...perDay].map(([day, held]) => ({ day, callbacks: held.length, byType: countsOf(held) })),
    byType: countsOf(callbacks),
  };
}

/**
 * Up to {@link MAX_SAMPLES} callbacks, in time order: the first of each type and stage (so a rare
 * ALL_CLEAR shows beside thousands of strikes), then the rest spread evenly over the others.
 * The body is the live one serialised as the publisher serialises it, with "simulation": true added.
 */
export function samplesOf(callbacks: readonly SimulatedCallback[]): BacktestSample[] {
  const chosen = new Set<number>();
  const seen = new Map<string, Set<string>>();
  for (let i = 0; i < callbacks.length && chosen.size < MAX_SAMPLES; i++) {
    const { callbackType, stage } = callbacks[i]!;
    let stages = seen.get(callbackType);
    if (!stages) seen.set(callbackType, (stages = new Set()));
    if (stages.has(stage)) continue;
    stages.add(stage);
    chosen.add(i);
  }
  const room = MAX_SAMPLES - chosen.size;
  if (room > 0 && callbacks.length > chosen.size) {
    const others = callbacks.map((_, i) => i).filter((i) => !chosen.has(i));
    for (let k = 0; k < Math.min(room, others.length); k++) {
      chosen.add(others[Math.round((k * (others.length - 1)) / Math.max(1, Math.min(room, others.length) - 1))]!);
    }
  }
  return [...chosen]
    .sort((a, b) => a - b)
    .map((i) => callbacks[i]!)
    .map((callback) => ({
      callbackType: callback.callbackType,
      atMs: callback.atMs,
      payloadJson: JSON.stringify({ ...callback.body(), simulation: true }),
    }));
}
