import { enumValue, weatherV1, type feedV1 } from '@stormhook/proto';
import type { LngLat } from '../domain/geo/types.js';
import { regularGrid } from '../domain/grid-cell-id.js';
import { FORECAST_METRICS, type ForecastMetricName } from '../domain/forecast-metrics.js';
import { apparentC, clearSkyGhi, climateMeanC, elevationM, interiorness, relativeHumidity, solarHour, sunSine, weatherCode } from './climate.js';
import { clamp, distanceKm, moveKm } from './geo-math.js';
import type { SimOptions } from './options.js';
import { Random } from './random.js';
import { summerness } from './storms.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Keep each chunk well under Kafka's default 1 MB record limit. */
const CHUNK_BYTES = 700_000;

/** A synoptic disturbance (a low with its fronts) crossing the region over a day or two. */
interface Disturbance {
  peakMs: number;
  spreadMs: number;
  origin: LngLat;
  speedKmh: number;
  headingDeg: number;
  radiusKm: number;
  rainMmPerH: number;
  windKmh: number;
}

function disturbancesOfDay(seed: number, day: number, opts: SimOptions): Disturbance[] {
  const rng = new Random(seed, `synoptic:${day}`);
  const { region } = opts;
  // Lows cross Turkey most days in winter and rarely in the dry summer.
  const count = rng.poisson(0.25 + 0.6 * (1 - summerness(day * DAY)));
  return Array.from({ length: count }, () => ({
    peakMs: day * DAY + rng.uniform(0, DAY),
    spreadMs: rng.uniform(8, 24) * HOUR,
    origin: { lng: rng.uniform(region.minLng - 2, region.maxLng), lat: rng.uniform(region.minLat, region.maxLat) },
    speedKmh: rng.uniform(20, 45),
    headingDeg: rng.normal(85, 20),
    radiusKm: rng.uniform(150, 350),
    rainMmPerH: rng.logNormal(1.0, 0.6),
    windKmh: rng.uniform(10, 35),
  }));
}

/** One run's view of the disturbances: the further ahead, the larger its position error. */
function runDisturbances(issueMs: number, opts: SimOptions): Disturbance[] {
  const first = Math.floor(issueMs / DAY) - 3;
  const last = Math.floor(issueMs / DAY) + opts.forecast.days + 2;
  const error = new Random(opts.seed, `run-error:${issueMs}`);
  const out: Disturbance[] = [];
  for (let day = first; day <= last; day++) {
    for (const d of disturbancesOfDay(opts.seed, day, opts)) {
      const leadDays = Math.max(0, (d.peakMs - issueMs) / DAY);
      out.push({ ...d, origin: moveKm(d.origin, error.uniform(0, 360), Math.abs(error.normal(0, 20 + 25 * leadDays))) });
    }
  }
  return out;
}

/** The grid points of the region, south-west first. Ids name the point, so they are stable across runs. */
export function gridPoints(opts: SimOptions): Array<{ id: string; p: LngLat }> {
  return regularGrid(opts.region, opts.forecast.gridDeg);
}

type Series = Record<ForecastMetricName, number[]>;

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Hourly series of every metric at one grid point. */
function cellSeries(p: LngLat, id: string, firstHour: number, hours: number, disturbances: readonly Disturbance[], opts: SimOptions): Series {
  const series = Object.fromEntries(Object.keys(FORECAST_METRICS).map((m) => [m, [] as number[]])) as Series;
  const elevation = elevationM(p);
  const inner = interiorness(p);
  const bias = new Random(opts.seed, `cell:${id}`).normal(0, 0.8);
  for (let h = 0; h < hours; h++) {
    const t = firstHour + h * HOUR;
    let rain = 0;
    let wet = 0;
    let broad = 0;
    let windBoost = 0;
    let windU = 0;
    let windV = 0;
    for (const d of disturbances) {
      const timeFactor = Math.exp(-(((t - d.peakMs) / d.spreadMs) ** 2));
      if (timeFactor < 1e-3) continue;
      const center = moveKm(d.origin, d.headingDeg, (d.speedKmh * (t - d.peakMs)) / HOUR);
      const dist = distanceKm(p, center);
      const near = Math.exp(-((dist / d.radiusKm) ** 2)) * timeFactor;
      rain += d.rainMmPerH * near;
      wet += near;
      broad += Math.exp(-((dist / (1.6 * d.radiusKm)) ** 2)) * Math.exp(-(((t - d.peakMs) / (1.5 * d.spreadMs)) ** 2));
      const gust = d.windKmh * Math.exp(-((dist / (1.3 * d.radiusKm)) ** 2)) * timeFactor;
      windBoost += gust;
      // Counterclockwise circulation around a northern-hemisphere low: the wind blows towards 90 degrees
      // clockwise of the bearing to the centre (south of a low it blows east).
      const toCenter = Math.atan2(center.lng - p.lng, center.lat - p.lat);
      windU += gust * Math.sin(toCenter + Math.PI / 2);
      windV += gust * Math.cos(toCenter + Math.PI / 2);
    }
    const summer = summerness(t);
    const local = solarHour(t, p.lng);
    const afternoon = (1 + Math.cos((2 * Math.PI * (local - 15)) / 24)) / 2;
    const dayIndex = Math.floor(t / DAY);
    const showers = new Random(opts.seed, `shower:${id}:${dayIndex}`);
    // Afternoon thunderstorms of the warm season, mostly inland, peaking around 15:30 local time.
    const showerDay = showers.chance(0.15 * summer * (0.3 + inner));
    const showerPeak = Math.exp(-(((local - 15.5) / 1.5) ** 2));
    const showerRain = showerDay ? showers.uniform(0.3, 4) * showerPeak : 0;
    const precip = round1(Math.max(0, rain - 0.05) + showerRain);
    const cumulus = 25 * summer * afternoon * inner + (showerDay ? 45 * showerPeak : 0);
    const cloud = Math.round(clamp(8 + 80 * Math.min(1, broad) + cumulus, 0, 100));

    const diurnal = (5 + 4 * inner) * (1 - (0.6 * cloud) / 100);
    const temp = climateMeanC(t, p, elevation) + diurnal * Math.cos((2 * Math.PI * (local - 14.5)) / 24) - 3 * Math.min(1, wet) + bias;
    const spread = clamp(8 + 6 * afternoon * (1 - Math.min(1, wet)) - 8 * Math.min(1, wet + (showerDay ? 0.3 : 0)) + 3 * inner, 0.3, 25);
    const dew = temp - spread;
    const rh = relativeHumidity(temp, dew);
    // Prevailing north-westerly flow plus the circulation of the disturbances.
    const baseWind = 8 + 6 * (1 - inner) + 5 * afternoon;
    const u = windU + baseWind * Math.sin((135 * Math.PI) / 180);
    const v = windV + baseWind * Math.cos((135 * Math.PI) / 180);
    const windSpeed = round1(Math.hypot(u, v) * 0.6 + windBoost * 0.4 + 2);
    const towards = (Math.atan2(u, v) * 180) / Math.PI;
    const windFrom = Math.round((((towards + 180) % 360) + 360) % 360);
    const gusts = round1(windSpeed * 1.45 + 4 + (showerDay ? 25 * showerPeak : 0));
    const snowShare = temp <= 0.5 ? 1 : temp < 2 ? (2 - temp) / 1.5 : 0;
    const snow = round1(precip * snowShare * 0.7);

    const mid = t - HOUR / 2;
    const sine = sunSine(mid, p);
    const ghiClear = clearSkyGhi(sine);
    const c = cloud / 100;
    const ghi = Math.round(ghiClear * (1 - 0.75 * c ** 3.4));
    const dni = sine > 0.02 ? Math.round(Math.min(ghi / sine, 950 * Math.exp(-0.14 / sine)) * (1 - c) ** 1.5) : 0;
    const diffuse = Math.round(Math.max(0, ghi - dni * Math.max(0, sine)));
    const visibility = rh > 97 && precip === 0 ? 600 : Math.round(clamp(40_000 * (1 - 0.5 * Math.min(1, broad)) - 5_000 * precip, 200, 50_000));

    series.TEMPERATURE.push(round1(temp));
    series.APPARENT_TEMPERATURE.push(round1(apparentC(temp, rh, windSpeed)));
    series.HUMIDITY.push(Math.round(rh));
    series.DEW_POINT.push(round1(dew));
    series.CLOUD_COVER.push(cloud);
    series.WIND_SPEED.push(windSpeed);
    series.WIND_GUSTS.push(gusts);
    series.WIND_DIRECTION.push(windFrom);
    series.PRECIPITATION.push(precip);
    series.PRECIPITATION_PROBABILITY.push(
      Math.round(clamp(100 * (1 - Math.exp(-4 * wet)) + 30 * summer * afternoon * inner + (showerDay ? 40 * showerPeak : 0), 0, 100)),
    );
    series.SNOWFALL.push(snow);
    series.REF_EVAPORATION_TRANSPIRATION_ET0.push(Math.round(Math.max(0, 0.0135 * (temp + 17.8) * ghi * 0.0036 * 0.408) * 100) / 100);
    series.SOIL_TEMPERATURE.push(round1(temp + 0.012 * ghi - (sine > 0 ? 0 : 1)));
    series.SOIL_MOISTURE.push(Math.round(clamp(0.32 - 0.14 * summer + 0.08 * Math.min(1, wet), 0.05, 0.5) * 1000) / 1000);
    series.SHORTWAVE_SOLAR_RADIATION_GHI.push(ghi);
    series.DIRECT_NORMAL_IRRADIANCE_DNI.push(dni);
    series.DIFFUSE_RADIATION.push(diffuse);
    series.VISIBILITY.push(visibility);
    series.WEATHER_CODE.push(
      weatherCode({
        cloud,
        rainMm: precip - snow / 0.7,
        snowCm: snow,
        showery: showerRain > 0,
        thunder: showerRain > 3 && summer > 0.5,
        fog: visibility < 1_000,
      }),
    );
    series.IS_DAY.push(sunSine(t, p) > 0 ? 1 : 0);
  }
  return series;
}

function stamp(t: number): string {
  return new Date(t).toISOString().slice(0, 16).replace(/[-:]/g, '');
}

/** The run ids of the simulator: model, seed and issue time, e.g. stormhook-sim-1-20250615T0600. */
export function runId(issueMs: number, opts: SimOptions): string {
  return `${opts.forecast.model}-${opts.seed}-${stamp(issueMs)}`;
}

/**
 * A whole forecast run issued at `issueMs`, as the chunks a publisher sends to feed.forecast.v1:
 * every grid point of the region, hourly for the configured number of days.
 */
export function forecastRun(issueMs: number, opts: SimOptions): feedV1.ForecastGrid[] {
  const hours = opts.forecast.days * 24;
  const firstHour = Math.ceil(issueMs / HOUR) * HOUR;
  const disturbances = runDisturbances(issueMs, opts);
  const metrics = Object.keys(FORECAST_METRICS) as ForecastMetricName[];
  const points = gridPoints(opts);
  const perChunk = clamp(Math.floor(CHUNK_BYTES / (metrics.length * hours * 4.3)), 1, 500);
  const chunkCount = Math.ceil(points.length / perChunk);
  const id = runId(issueMs, opts);
  return Array.from({ length: chunkCount }, (_, chunk) => ({
    runId: id,
    version: 0,
    updatedEpochMs: 0,
    model: opts.forecast.model,
    issueEpochMs: issueMs,
    chunkIndex: chunk,
    chunkCount,
    firstHourEpochMs: firstHour,
    hourCount: hours,
    cells: points.slice(chunk * perChunk, (chunk + 1) * perChunk).map(({ id: cellId, p }) => {
      const series = cellSeries(p, cellId, firstHour, hours, disturbances, opts);
      return {
        cellId,
        latitude: p.lat,
        longitude: p.lng,
        elevationM: elevationM(p),
        series: metrics.map((m) => ({ metric: enumValue(weatherV1.ForecastMetric, m), values: series[m] })),
      };
    }),
  }));
}
