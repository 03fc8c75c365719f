import { breaches, resolveThreshold, worse, type ResolvedThreshold, type ThresholdMetric } from '../domain/forecast-thresholds.js';
import { FORECAST_FILTER_FIELDS, type ForecastFilter } from '../domain/registration.js';
import type { DailyValues } from './daily.js';
import type { CellForecast } from './forecast-cells.js';

export interface ViolationForecast {
  /** The UTC day, ISO 8601 midnight (e.g. 2025-09-14T00:00:00Z). */
  time: string;
  /** The day's value in the violation's unit (the worst over the evaluated cells). */
  value: number;
  /** The grid cell the value comes from. */
  cellId: string;
  latitude: number;
  longitude: number;
}

export interface Violation {
  metric: ThresholdMetric;
  unit: string;
  /** The threshold name of the filter, e.g. MODERATE. */
  threshold: string;
  /** Its numeric value in `unit`. */
  thresholdValue: number;
  comparison: '>=' | '<=';
  /** Only the days that breach, in day order. */
  forecasts: ViolationForecast[];
}

function dailyValueOf(metric: ThresholdMetric, day: DailyValues): number | undefined {
  switch (metric) {
    case 'PRECIPITATION':
      return day.precipitationMm;
    case 'SNOWFALL':
      return day.snowfallCm;
    case 'WIND_GUSTS_MAX':
      return day.windGustMaxKmh;
    case 'TEMPERATURE_MAX':
      return day.temperatureMaxC;
    case 'TEMPERATURE_MIN':
      return day.temperatureMinC;
  }
}

function isoDay(dayMs: number): string {
  return `${new Date(dayMs).toISOString().slice(0, 10)}T00:00:00Z`;
}

/** The worst value of the day over `cells` and the cell holding it. */
function worstOfDay(threshold: ResolvedThreshold, cells: readonly CellForecast[], dayMs: number): { value: number; cell: CellForecast } | undefined {
  let found: { value: number; cell: CellForecast } | undefined;
  for (const cell of cells) {
    const day = cell.days.find((d) => d.dayMs === dayMs);
    const value = day && dailyValueOf(threshold.metric, day);
    if (value === undefined || !Number.isFinite(value)) continue;
    if (!found || worse(threshold.comparison, value, found.value) !== found.value) found = { value, cell };
  }
  return found;
}

/**
 * Every threshold of `filter` breached on one of `days`, with only the breaching days listed. For an
 * area (several cells) the worst value over its cells counts, and each listed day names its cell.
 */
export function violationsOf(filter: ForecastFilter, cells: readonly CellForecast[], days: readonly number[]): Violation[] {
  const violations: Violation[] = [];
  for (const field of FORECAST_FILTER_FIELDS) {
    const name = filter[field];
    if (!name) continue;
    const threshold = resolveThreshold(field, name);
    if (!threshold) continue; // validated on save; a name removed from the table since then is skipped
    const forecasts: ViolationForecast[] = [];
    for (const dayMs of days) {
      const worst = worstOfDay(threshold, cells, dayMs);
      if (!worst || !breaches(threshold, worst.value)) continue;
      forecasts.push({
        time: isoDay(dayMs),
        value: Math.round(worst.value * 100) / 100,
        cellId: worst.cell.cellId,
        latitude: worst.cell.location[1],
        longitude: worst.cell.location[0],
      });
    }
    if (forecasts.length > 0) {
      violations.push({
        metric: threshold.metric,
        unit: threshold.unit,
        threshold: threshold.name,
        thresholdValue: threshold.value,
        comparison: threshold.comparison,
        forecasts,
      });
    }
  }
  return violations;
}
