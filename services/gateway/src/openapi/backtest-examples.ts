import { alarmSchemas, type AlarmKind } from '../schemas/alarms.js';
import { exampleOf, NOW_MS } from './examples.js';
import { WEBHOOK_EXAMPLES } from './webhook-examples.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The examples' window: the week up to the examples' now (12:00 UTC, 15:00 in İstanbul). */
const FROM = NOW_MS - 7 * DAY_MS;
const TO = NOW_MS;

/** The one threshold each example tries, so that its answer's coverage and sweep are of that filter. */
const FILTERS: Readonly<Record<AlarmKind, Record<string, unknown>>> = {
  geometries: { lightning: { type: 'FLASH_CLOUD_TO_GROUND', peakCurrent: 10_000 } },
  points: { lightning: { type: 'FLASH_CLOUD_TO_GROUND', peakCurrent: 10_000 } },
  forecasts: { precipitationThreshold: 'HEAVY' },
};

/**
 * The back-test body of a kind: its register example, without the webhook (optional, and unused by a
 * back-test) and the registrationId (assigned, never sent), with a one-threshold filter and the window.
 */
function request(kind: AlarmKind): Record<string, unknown> {
  const draft = { ...(exampleOf(alarmSchemas[kind].registerRequest, 'request') as Record<string, unknown>) };
  delete draft['webhook'];
  delete draft['registrationId'];
  return { ...draft, filter: FILTERS[kind], from: FROM, to: TO };
}

/** The eight Europe/Istanbul days the window touches, with `busy` callbacks on the days named. */
function days(busy: Readonly<Record<string, ReadonlyArray<{ callbackType: string; stage: string; callbacks: number }>>>) {
  return ['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28'].map((day) => {
    const byType = busy[day] ?? [];
    return { day, callbacks: byType.reduce((sum, row) => sum + row.callbacks, 0), byType };
  });
}

const span = (from: number, to: number) => ({ from, to });

/** A week with one storm over Ankara on the 24th: two strikes and the all-clear, with a day of lightning data missing. */
function lightningAnswer(): Record<string, unknown> {
  const first = Date.UTC(2026, 10, 24, 14, 12, 31);
  const last = Date.UTC(2026, 10, 24, 15, 2, 9);
  const strike = { callbackType: 'lightning.strike', stage: 'START', callbacks: 2 };
  const allClear = { callbackType: 'lightning.all_clear', stage: 'ALL_CLEAR', callbacks: 1 };
  const gapFrom = Date.UTC(2026, 10, 26, 3, 0, 0);
  const gapTo = Date.UTC(2026, 10, 26, 9, 0, 0);
  return {
    from: FROM,
    to: TO,
    callbacks: 3,
    firstCallback: first,
    lastCallback: last,
    days: days({ '2026-11-24': [strike, allClear] }),
    byType: [strike, allClear],
    samples: [
      {
        callbackType: 'lightning.strike',
        at: first,
        payload: { ...WEBHOOK_EXAMPLES['lightning.strike'], timestamp: new Date(first).toISOString(), timeEpochMillis: first - 1_400, simulation: true },
      },
    ],
    coverage: [{ dataKind: 'LIGHTNING', covered: [span(FROM, gapFrom), span(gapTo, TO)], gaps: [span(gapFrom, gapTo)] }],
    sweep: {
      field: 'filter.lightning.peakCurrent',
      current: '10000',
      points: [
        { value: '0', callbacks: 9 },
        { value: '5000', callbacks: 5 },
        { value: '10000', callbacks: 3 },
        { value: '20000', callbacks: 1 },
        { value: '50000', callbacks: 0 },
      ],
    },
    warnings: ['lightning data is missing from 2026-11-26T03:00:00.000Z to 2026-11-26T09:00:00.000Z: no callback there says nothing about the weather'],
  };
}

/** A week in which the morning slot of the 27th would have warned of heavy rain on the 28th. */
function forecastAnswer(): Record<string, unknown> {
  const slot = Date.UTC(2026, 10, 27, 4, 0, 0);
  const alarm = { callbackType: 'forecast.alarm', stage: 'ALARM', callbacks: 1 };
  return {
    from: FROM,
    to: TO,
    callbacks: 1,
    firstCallback: slot,
    lastCallback: slot,
    days: days({ '2026-11-27': [alarm] }),
    byType: [alarm],
    samples: [
      {
        callbackType: 'forecast.alarm',
        at: slot,
        payload: { ...WEBHOOK_EXAMPLES['forecast.alarm'], timestamp: new Date(slot).toISOString(), simulation: true },
      },
    ],
    coverage: [{ dataKind: 'FORECAST', covered: [span(FROM, TO)], gaps: [] }],
    sweep: {
      field: 'filter.precipitationThreshold',
      current: 'HEAVY',
      points: [
        { value: 'LIGHT', callbacks: 6 },
        { value: 'MODERATE', callbacks: 3 },
        { value: 'HEAVY', callbacks: 1 },
        { value: 'VERY_HEAVY', callbacks: 0 },
        { value: 'EXTREME', callbacks: 0 },
      ],
    },
    warnings: [],
  };
}

/** The request and answer examples of each kind's back-test. */
export function backtestExamples(kind: AlarmKind): { request: Record<string, unknown>; response: Record<string, unknown> } {
  return { request: request(kind), response: kind === 'forecasts' ? forecastAnswer() : lightningAnswer() };
}
