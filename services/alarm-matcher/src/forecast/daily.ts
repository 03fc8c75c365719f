/**
 * Daily values of one forecast grid cell, per UTC day, from the hourly series of the feed. Hourly
 * amounts (precipitation, snowfall) and gusts describe the PRECEDING hour, so the value valid at
 * 00:00 belongs to the day before; temperatures are instantaneous and belong to the day of their
 * valid time. Missing values (NaN) are skipped; a metric with no value on a day is absent.
 */
export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

export interface DailyValues {
  /** UTC midnight starting the day, epoch ms. */
  dayMs: number;
  /** Total of the day, millimetres. */
  precipitationMm?: number;
  /** Total of the day, centimetres. */
  snowfallCm?: number;
  /** Highest gust of the day, km/h. */
  windGustMaxKmh?: number;
  /** Highest temperature of the day, °C. */
  temperatureMaxC?: number;
  /** Lowest temperature of the day, °C. */
  temperatureMinC?: number;
}

export type HourlyMetric = 'PRECIPITATION' | 'SNOWFALL' | 'WIND_GUSTS' | 'TEMPERATURE';

export interface HourlySeries {
  metric: HourlyMetric;
  values: ArrayLike<number>;
}

export function utcDay(epochMs: number): number {
  return Math.floor(epochMs / DAY_MS) * DAY_MS;
}

export function dailyValues(firstHourMs: number, series: readonly HourlySeries[]): DailyValues[] {
  const days = new Map<number, DailyValues>();
  const dayOf = (dayMs: number): DailyValues => {
    let day = days.get(dayMs);
    if (!day) {
      day = { dayMs };
      days.set(dayMs, day);
    }
    return day;
  };
  for (const { metric, values } of series) {
    for (let i = 0; i < values.length; i++) {
      const value = values[i]!;
      if (!Number.isFinite(value)) continue;
      const validMs = firstHourMs + i * HOUR_MS;
      if (metric === 'TEMPERATURE') {
        const day = dayOf(utcDay(validMs));
        day.temperatureMaxC = Math.max(day.temperatureMaxC ?? -Infinity, value);
        day.temperatureMinC = Math.min(day.temperatureMinC ?? Infinity, value);
        continue;
      }
      const day = dayOf(utcDay(validMs - 1));
      if (metric === 'PRECIPITATION') day.precipitationMm = (day.precipitationMm ?? 0) + value;
      else if (metric === 'SNOWFALL') day.snowfallCm = (day.snowfallCm ?? 0) + value;
      else day.windGustMaxKmh = Math.max(day.windGustMaxKmh ?? -Infinity, value);
    }
  }
  // Float sums of hourly amounts carry noise (0.1 + 0.2); thresholds compare to two decimals.
  for (const day of days.values()) {
    if (day.precipitationMm !== undefined) day.precipitationMm = Math.round(day.precipitationMm * 100) / 100;
    if (day.snowfallCm !== undefined) day.snowfallCm = Math.round(day.snowfallCm * 100) / 100;
  }
  return [...days.values()].sort((a, b) => a.dayMs - b.dayMs);
}
