import type { BBox } from '@stormhook/geometry';
import type { LngLat } from '../domain/geo/types.js';

export interface ForecastOptions {
  enabled: boolean;
  /** A run every this often, aligned on UTC (default 6 h: 00, 06, 12, 18 UTC). */
  everyMs: number;
  /** Horizon of a run in days, 1 to 14. */
  days: number;
  /** Grid spacing in decimal degrees. */
  gridDeg: number;
  model: string;
}

export interface SimOptions {
  seed: number;
  /** Where storms live and the forecast grid lies; must sit inside ingest's coverage. */
  region: BBox;
  /** Mean number of storm systems alive at once: the activity of the weather. */
  storms: number;
  /** Lightning is generated per tick. */
  tickMs: number;
  /** A radar scan (precipitation and storm cells) every this often. */
  scanMs: number;
  /** Nowcast lead times, minutes after each scan. */
  nowcastLeadsMin: number[];
  /** Multiplies every flash rate. */
  lightningScale: number;
  /**
   * Scales how much storms wander off their steering motion (motion.ts): 1 = the sizes derived from
   * published nowcast errors, 0 = straight lines at constant speed. The demo storm never wanders.
   */
  motionNoise: number;
  /**
   * Where a thunderstorm is kept whatever the season and the draw of the random storms, so a first
   * start always has lightning, a storm cell and rain at a place the README can name; none by default.
   */
  demoStorm?: LngLat;
  /**
   * Where the approach demo's cells head (storms.ts, APPROACH_DEMO): a fast small cell every two
   * minutes, so an alarm there with a warning stage hears one coming soon after it registers; none by default.
   */
  demoApproach?: LngLat;
  forecast: ForecastOptions;
}

/** The demo storm of the local stack: over Ankara (Kızılay), the city of the README's examples. */
export const ANKARA: LngLat = { lng: 32.86, lat: 39.93 };

/** The approach demo's target: Polatlı, 70 km west-south-west of Ankara, clear of the demo storm. */
export const POLATLI: LngLat = { lng: 32.15, lat: 39.58 };

export function parseLngLat(text: string, name: string): LngLat {
  const parts = text.split(',').map((p) => Number(p.trim()));
  const [lng, lat] = parts as [number, number];
  if (parts.length !== 2 || !Number.isFinite(lng) || !Number.isFinite(lat) || Math.abs(lng) > 180 || Math.abs(lat) > 90) {
    throw new Error(`--${name} must be lng,lat in decimal degrees, got "${text}"`);
  }
  return { lng, lat };
}

/** Turkey's land area with a little sea around it. */
export const TURKEY: BBox = { minLng: 26, minLat: 36, maxLng: 45, maxLat: 42 };

export const DEFAULT_SIM_OPTIONS: SimOptions = {
  seed: 1,
  region: TURKEY,
  storms: 4,
  tickMs: 10_000,
  scanMs: 5 * 60_000,
  nowcastLeadsMin: [30, 60],
  lightningScale: 1,
  motionNoise: 1,
  forecast: { enabled: true, everyMs: 6 * 3_600_000, days: 7, gridDeg: 0.5, model: 'stormhook-sim' },
};

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "90s", "15m", "2h", "1d" or plain milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration (use e.g. 90s, 15m, 2h, 1d)`);
  return Math.round(Number(match[1]) * UNITS[match[2] ?? 'ms']!);
}

/** Up to three times the published sizes; beyond, storms would mostly ride the speed limits of motion.ts. */
export const MAX_MOTION_NOISE = 3;

export function parseMotionNoise(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > MAX_MOTION_NOISE) {
    throw new Error(`--motion-noise must be a number from 0 to ${MAX_MOTION_NOISE}, got "${text}"`);
  }
  return value;
}

export function parseBBox(text: string): BBox {
  const parts = text.split(',').map((p) => Number(p.trim()));
  const [minLng, minLat, maxLng, maxLat] = parts as [number, number, number, number];
  if (parts.length !== 4 || parts.some((p) => !Number.isFinite(p)) || minLng >= maxLng || minLat >= maxLat) {
    throw new Error(`"${text}" is not a box: use minLng,minLat,maxLng,maxLat`);
  }
  return { minLng, minLat, maxLng, maxLat };
}
