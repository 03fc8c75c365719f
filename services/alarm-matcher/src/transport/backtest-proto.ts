import { alarmV1 } from '@stormhook/proto';
import type { BacktestOutcome, TypeCount } from '../usecases/backtest/backtest-outcome.js';
import type { Span } from '../ports/weather-history.js';

const span = (s: Span): alarmV1.BacktestSpan => ({ fromEpochMs: s.fromMs, toEpochMs: s.toMs });
const typeCount = (t: TypeCount): alarmV1.BacktestTypeCount => ({ callbackType: t.callbackType, stage: t.stage, callbacks: t.callbacks });

/** A back-test's outcome as BacktestAlarmResponse; the absent first/last callback and sweep stay absent. */
export function backtestToProto(outcome: BacktestOutcome): alarmV1.BacktestAlarmResponse {
  return alarmV1.BacktestAlarmResponse.create({
    fromEpochMs: outcome.fromMs,
    toEpochMs: outcome.toMs,
    callbacks: outcome.callbacks,
    ...(outcome.firstCallbackMs !== undefined ? { firstCallbackEpochMs: outcome.firstCallbackMs } : {}),
    ...(outcome.lastCallbackMs !== undefined ? { lastCallbackEpochMs: outcome.lastCallbackMs } : {}),
    days: outcome.days.map((d) => ({ day: d.day, callbacks: d.callbacks, byType: d.byType.map(typeCount) })),
    byType: outcome.byType.map(typeCount),
    samples: outcome.samples.map((s) => ({ callbackType: s.callbackType, atEpochMs: s.atMs, payloadJson: s.payloadJson })),
    coverage: outcome.coverage.map((c) => ({ dataKind: c.dataKind, covered: c.covered.map(span), gaps: c.gaps.map(span) })),
    ...(outcome.sweep
      ? {
          sweep: {
            field: outcome.sweep.field,
            current: outcome.sweep.current,
            points: outcome.sweep.points.map((p) => ({ value: p.value, callbacks: p.callbacks })),
          },
        }
      : {}),
    warnings: outcome.warnings,
  });
}
