import type { HistoryKind, Span } from '../../ports/weather-history.js';
import type { BacktestCoverage } from './backtest-outcome.js';

/**
 * Which parts of the window have data of `kind`: the history's spans clipped to the window and
 * merged, and the rest of the window as gaps, so that no callbacks is never mistaken for quiet weather.
 */
export function coverageOf(kind: HistoryKind, spans: readonly Span[], fromMs: number, toMs: number): BacktestCoverage {
  const clipped = spans
    .map((s) => ({ fromMs: Math.max(s.fromMs, fromMs), toMs: Math.min(s.toMs, toMs) }))
    .filter((s) => s.toMs > s.fromMs)
    .sort((a, b) => a.fromMs - b.fromMs);
  const covered: Span[] = [];
  for (const span of clipped) {
    const last = covered[covered.length - 1];
    if (last && span.fromMs <= last.toMs) last.toMs = Math.max(last.toMs, span.toMs);
    else covered.push({ ...span });
  }
  const gaps: Span[] = [];
  let at = fromMs;
  for (const span of covered) {
    if (span.fromMs > at) gaps.push({ fromMs: at, toMs: span.fromMs });
    at = span.toMs;
  }
  if (at < toMs) gaps.push({ fromMs: at, toMs });
  return { dataKind: kind, covered, gaps };
}
