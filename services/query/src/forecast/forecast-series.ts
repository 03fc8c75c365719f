import type { queryV1 } from '@stormhook/proto';
import type { ForecastCell } from './forecast-store.js';
import { valueAt } from './forecast-store.js';
import type { DailyMetric, Derivation, HourlyMetric } from './metric-catalogue.js';
import { isDaylight, sunPosition, tiltedIrradiance } from './solar.js';
import { localDate, localDateTime } from './timezone.js';
import { dailyWeatherCode, weatherIcon } from './weather-icons.js';

const HOUR = 3_600_000;

export interface SeriesContext {
  cell: ForecastCell;
  zone: string;
  tiltDeg: number;
  azimuthDeg: number;
}

export interface LocalDay {
  /** Local midnight starting the day, epoch ms. */
  start: number;
  /** Local midnight ending it. */
  end: number;
  /** `2026-11-21`. */
  date: string;
}

/** Values carry float32 noise from the feed; two decimals are more than any metric's precision. */
const tidy = (v: number) => Math.round(v * 100) / 100;

function isDayAt(ctx: SeriesContext, t: number): boolean {
  const flag = valueAt(ctx.cell, 'FORECAST_METRIC_IS_DAY', t);
  return Number.isFinite(flag) ? flag >= 0.5 : isDaylight(t, ctx.cell.lat, ctx.cell.lng);
}

/** The hourly value a derivation gives at `t` (NaN when the model has none). */
function derive(derivation: Derivation, ctx: SeriesContext, t: number): number {
  switch (derivation.kind) {
    case 'series':
      return valueAt(ctx.cell, derivation.source, t);
    case 'icon':
      return valueAt(ctx.cell, 'FORECAST_METRIC_WEATHER_CODE', t);
    case 'gti': {
      // Radiation values are means of the preceding hour: the sun is taken at the middle of it.
      const sun = sunPosition(t - HOUR / 2, ctx.cell.lat, ctx.cell.lng);
      return tiltedIrradiance(
        {
          ghi: valueAt(ctx.cell, 'FORECAST_METRIC_SHORTWAVE_SOLAR_RADIATION_GHI', t),
          dni: valueAt(ctx.cell, 'FORECAST_METRIC_DIRECT_NORMAL_IRRADIANCE_DNI', t),
          dhi: valueAt(ctx.cell, 'FORECAST_METRIC_DIFFUSE_RADIATION', t),
        },
        sun,
        ctx.tiltDeg,
        ctx.azimuthDeg,
      );
    }
  }
}

/** What every metric's value at one hour shares: computed once per hour, not once per metric. */
export interface HourFrame {
  t: number;
  /** Local date and time with its offset. */
  time: string;
  isDay: boolean;
}

export function hourFrames(ctx: SeriesContext, hours: readonly number[]): HourFrame[] {
  return hours.map((t) => ({ t, time: localDateTime(t, ctx.zone), isDay: isDayAt(ctx, t) }));
}

export function hourlyValues(metric: HourlyMetric, ctx: SeriesContext, frames: readonly HourFrame[]): queryV1.ForecastValue[] {
  return frames.map(({ t, time, isDay }) => {
    const v = derive(metric.derivation, ctx, t);
    return {
      timeEpochMs: t,
      time,
      isDay,
      ...(Number.isFinite(v) ? { value: tidy(v) } : {}),
      icon: metric.derivation.kind === 'icon' && Number.isFinite(v) ? weatherIcon(v, isDay) : '',
    };
  });
}

function dominantDirection(ctx: SeriesContext, hours: readonly number[]): number {
  // Vector mean of the directions, weighted by wind speed when the model has it.
  let x = 0;
  let y = 0;
  for (const t of hours) {
    const deg = valueAt(ctx.cell, 'FORECAST_METRIC_WIND_DIRECTION', t);
    if (!Number.isFinite(deg)) continue;
    const speed = valueAt(ctx.cell, 'FORECAST_METRIC_WIND_SPEED', t);
    const w = Number.isFinite(speed) ? speed : 1;
    x += w * Math.sin((deg * Math.PI) / 180);
    y += w * Math.cos((deg * Math.PI) / 180);
  }
  if (x === 0 && y === 0) return NaN;
  const deg = (Math.atan2(x, y) * 180) / Math.PI;
  return deg < 0 ? deg + 360 : deg;
}

/** Hours of the run that fall in [from, to), on whole hours. */
export function runHours(cell: ForecastCell, from: number, to: number): number[] {
  const first = Math.max(cell.firstHour, Math.ceil(from / HOUR) * HOUR);
  const last = Math.min(cell.firstHour + (cell.hourCount - 1) * HOUR, to - 1);
  const hours: number[] = [];
  for (let t = first; t <= last; t += HOUR) hours.push(t);
  return hours;
}

/**
 * One value per local day. Sums and energies add the hours ending in the day (values describe the
 * preceding hour), statistics use the hours starting in it. `partial` lists the dates the run
 * covers with fewer than all of the day's hours.
 */
export function dailyValues(metric: DailyMetric, ctx: SeriesContext, days: readonly LocalDay[]): { values: queryV1.ForecastValue[]; partial: string[] } {
  const partial: string[] = [];
  const accumulates = metric.aggregation === 'sum' || metric.aggregation === 'energy';
  const values = days.map((day) => {
    const hours = accumulates ? runHours(ctx.cell, day.start + HOUR, day.end + HOUR) : runHours(ctx.cell, day.start, day.end);
    if (hours.length < Math.round((day.end - day.start) / HOUR)) partial.push(day.date);
    let value = NaN;
    if (metric.aggregation === 'dominant-direction') value = dominantDirection(ctx, hours);
    else {
      const xs = hours.map((t) => derive(metric.derivation, ctx, t)).filter(Number.isFinite);
      if (xs.length > 0) {
        switch (metric.aggregation) {
          case 'avg':
            value = xs.reduce((a, b) => a + b, 0) / xs.length;
            break;
          case 'min':
            value = Math.min(...xs);
            break;
          case 'max':
            value = Math.max(...xs);
            break;
          case 'sum':
            value = xs.reduce((a, b) => a + b, 0);
            break;
          case 'energy':
            value = (xs.reduce((a, b) => a + b, 0) * 3600) / 1e6; // W/m² over hours -> MJ/m²
            break;
          case 'icon':
            value = dailyWeatherCode(xs);
            break;
        }
      }
    }
    return {
      timeEpochMs: day.start,
      time: localDate(day.start, ctx.zone),
      isDay: true,
      ...(Number.isFinite(value) ? { value: tidy(value) } : {}),
      icon: metric.aggregation === 'icon' && Number.isFinite(value) ? weatherIcon(value, true) : '',
    };
  });
  return { values, partial };
}
