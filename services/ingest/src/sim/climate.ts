import type { LngLat } from '../domain/geo/types.js';
import { clamp } from './geo-math.js';
import { dayOfYear } from './storms.js';

/**
 * A caricature of Turkey's climate, good enough for plausible forecasts: a plateau rising to the
 * east between two coasts, seasons that are harsher inland, afternoons warmer than nights. Each
 * function is pure, so a grid cell's forecast depends only on the seed, the run and the cell.
 */

/** 0 on the coasts and seas, 1 deep inside Anatolia. */
export function interiorness(p: LngLat): number {
  const fromCoast = Math.min(p.lat - 36.3, 41.3 - p.lat, p.lng - 26.5);
  return clamp(fromCoast / 1.6, 0, 1);
}

/** Rough sea mask: the Black Sea, the Mediterranean south of the Taurus and the Aegean. */
export function isSea(p: LngLat): boolean {
  return (p.lat > 41.4 && p.lng > 28.2 && p.lng < 41.5) || (p.lat < 36.2 && p.lng > 29 && p.lng < 36.1) || p.lng < 26.2;
}

/** Synthetic elevation in metres: coasts near sea level, the plateau at about 1,000 m, the east higher. */
export function elevationM(p: LngLat): number {
  if (isSea(p)) return 0;
  const inner = interiorness(p);
  const smooth = inner * inner * (3 - 2 * inner);
  const east = clamp((p.lng - 34) / 9, 0, 1);
  const relief = 180 * Math.sin(p.lng * 2.1) * Math.cos(p.lat * 1.7);
  return Math.round(Math.max(0, 60 + 950 * smooth + 950 * east * (0.3 + 0.7 * smooth) + relief * smooth));
}

/** -1 in late January, +1 in late July. */
export function seasonal(t: number): number {
  return -Math.cos((2 * Math.PI * (dayOfYear(t) - 20)) / 365.25);
}

/** Local solar hour at longitude `lng`, 0 to 24. */
export function solarHour(t: number, lng: number): number {
  return (((((t / 3_600_000) % 24) + lng / 15) % 24) + 24) % 24;
}

/** Sine of the sun's elevation at t and p (negative at night). */
export function sunSine(t: number, p: LngLat): number {
  const rad = Math.PI / 180;
  const declination = 23.44 * rad * Math.sin((2 * Math.PI * (284 + dayOfYear(t))) / 365.25);
  const hourAngle = 15 * rad * (solarHour(t, p.lng) - 12);
  const lat = p.lat * rad;
  return Math.sin(lat) * Math.sin(declination) + Math.cos(lat) * Math.cos(declination) * Math.cos(hourAngle);
}

/** Daily mean temperature (°C) before weather systems: latitude, altitude and season. */
export function climateMeanC(t: number, p: LngLat, elevation: number): number {
  // Calibrated on İzmir (17.9 °C annual mean, sea level) and Ankara (about 12 °C, 940 m, swing of 23 °C).
  const amplitude = 9.5 + 2.5 * interiorness(p);
  return 17.5 - 0.85 * (p.lat - 39) - 0.0065 * elevation + amplitude * seasonal(t);
}

/** Relative humidity (%) from temperature and dew point (Magnus formula). */
export function relativeHumidity(tempC: number, dewC: number): number {
  const magnus = (x: number) => Math.exp((17.625 * x) / (243.04 + x));
  return clamp((100 * magnus(dewC)) / magnus(tempC), 0, 100);
}

/** Apparent temperature (°C), Steadman's formula with wind in m/s. */
export function apparentC(tempC: number, rh: number, windKmh: number): number {
  const vapour = (rh / 100) * 6.105 * Math.exp((17.27 * tempC) / (237.7 + tempC));
  return tempC + 0.33 * vapour - 0.7 * (windKmh / 3.6) - 4;
}

/** Clear-sky global horizontal irradiance (W/m²) for a sun elevation sine (Haurwitz). */
export function clearSkyGhi(sine: number): number {
  return sine <= 0 ? 0 : 1098 * sine * Math.exp(-0.057 / sine);
}

/** WMO 4677 present-weather code, as Open-Meteo uses it. */
export function weatherCode(w: { cloud: number; rainMm: number; snowCm: number; showery: boolean; thunder: boolean; fog: boolean }): number {
  if (w.thunder) return 95;
  if (w.snowCm > 0) return w.snowCm < 0.5 ? 71 : w.snowCm < 2 ? 73 : 75;
  if (w.rainMm > 0) {
    if (w.showery) return w.rainMm < 1 ? 80 : w.rainMm < 4 ? 81 : 82;
    return w.rainMm < 1 ? 61 : w.rainMm < 4 ? 63 : 65;
  }
  if (w.fog) return 45;
  return w.cloud < 20 ? 0 : w.cloud < 45 ? 1 : w.cloud < 75 ? 2 : 3;
}
