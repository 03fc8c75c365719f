import type { Registration } from '../../domain/registration.js';
import type { HistoryKind, Span } from '../../ports/weather-history.js';

/** A draft registration (validated, area resolved, never stored) and the window to run it over. */
export interface BacktestInput {
  registration: Registration;
  fromMs: number;
  toMs: number;
}

/** Callbacks of one webhook event type and lifecycle phase. */
export interface TypeCount {
  /** Webhook event type, e.g. lightning.strike. */
  callbackType: string;
  /** START, UPDATE, END, APPROACHING, APPROACH_CANCELLED, ALL_CLEAR, ALARM. */
  stage: string;
  callbacks: number;
}

export interface BacktestDay {
  /** Europe/Istanbul day, YYYY-MM-DD. */
  day: string;
  callbacks: number;
  byType: TypeCount[];
}

export interface BacktestSample {
  callbackType: string;
  /** The simulated time of the decision. */
  atMs: number;
  /** The body as the live path builds it, plus "simulation": true. */
  payloadJson: string;
}

export interface BacktestCoverage {
  dataKind: HistoryKind;
  covered: Span[];
  gaps: Span[];
}

export interface BacktestSweep {
  /** The swept field as the public API names it, e.g. filter.lightning.peakCurrentAmperes. */
  field: string;
  current: string;
  /** Least to most demanding; counts never grow along the list. */
  points: Array<{ value: string; callbacks: number }>;
}

/** What a back-test answers (alarm.v1 BacktestAlarmResponse). */
export interface BacktestOutcome {
  fromMs: number;
  toMs: number;
  callbacks: number;
  firstCallbackMs?: number;
  lastCallbackMs?: number;
  days: BacktestDay[];
  byType: TypeCount[];
  samples: BacktestSample[];
  coverage: BacktestCoverage[];
  sweep?: BacktestSweep;
  warnings: string[];
}

/** Runs a draft over the history (implemented by usecases/backtest, called by the gRPC handler). */
export interface BacktestRunner {
  run(input: BacktestInput): Promise<BacktestOutcome>;
}
