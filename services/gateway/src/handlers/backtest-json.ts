import type { alarmV1 } from '@stormhook/proto';

/**
 * The alarm-matcher's BacktestAlarmResponse in the public shape (schemas/alarm-backtest.ts): times as
 * epoch milliseconds (the request's from and to name the window in the answer too), absent first and
 * last callback and sweep as null, and each sample's payload as the JSON object the live path builds.
 */

const typeCount = (t: alarmV1.BacktestTypeCount) => ({ callbackType: t.callbackType, stage: t.stage, callbacks: t.callbacks });
const span = (s: alarmV1.BacktestSpan) => ({ from: Number(s.fromEpochMs), to: Number(s.toEpochMs) });
const instantOrNull = (ms: number | null | undefined): number | null => (ms === undefined || ms === null ? null : Number(ms));

/** The sample's body as sent; a body that is not a JSON object is the matcher's fault, not the caller's (500). */
function payloadOf(sample: alarmV1.BacktestSample): Record<string, unknown> {
  let payload: unknown;
  try {
    payload = JSON.parse(sample.payloadJson);
  } catch (error) {
    throw new Error(`the alarm-matcher sent a ${sample.callbackType} sample whose payload is not JSON`, { cause: error });
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new Error(`the alarm-matcher sent a ${sample.callbackType} sample whose payload is not a JSON object`);
  }
  return payload as Record<string, unknown>;
}

export function backtestJson(answer: alarmV1.BacktestAlarmResponse): Record<string, unknown> {
  const sweep = answer.sweep;
  return {
    from: Number(answer.fromEpochMs),
    to: Number(answer.toEpochMs),
    callbacks: answer.callbacks,
    firstCallback: instantOrNull(answer.firstCallbackEpochMs),
    lastCallback: instantOrNull(answer.lastCallbackEpochMs),
    days: answer.days.map((d) => ({ day: d.day, callbacks: d.callbacks, byType: d.byType.map(typeCount) })),
    byType: answer.byType.map(typeCount),
    samples: answer.samples.map((s) => ({ callbackType: s.callbackType, at: Number(s.atEpochMs), payload: payloadOf(s) })),
    coverage: answer.coverage.map((c) => ({ dataKind: c.dataKind, covered: c.covered.map(span), gaps: c.gaps.map(span) })),
    sweep: sweep ? { field: sweep.field, current: sweep.current, points: sweep.points.map((p) => ({ value: p.value, callbacks: p.callbacks })) } : null,
    warnings: [...answer.warnings],
  };
}
