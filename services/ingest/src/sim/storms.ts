import type { LngLat } from '../domain/geo/types.js';
import { clamp, moveKm } from './geo-math.js';
import { centerAt, drawTrack } from './motion.js';
import type { Harmonic, StormKind, StormSystem } from './storm-system.js';
import type { SimOptions } from './options.js';
import { Random } from './random.js';

const HOUR = 3_600_000;
/** No system lives longer; bounds how far back in time births are looked up. */
export const MAX_LIFE_MS = 12 * HOUR;
/** Mean life of a system, used to turn "storms alive at once" into a birth rate. */
const MEAN_LIFE_H = 4;

export type { Harmonic, StormKind, StormSystem } from './storm-system.js';

export interface StormState {
  /** 0 at birth and death, 1 at maturity. */
  strength: number;
  center: LngLat;
  radiusKm: number;
  peakRateMmPerH: number;
  flashesPerMin: number;
}

/** Day of the year, 0-based, fractional. */
export function dayOfYear(t: number): number {
  return (t - Date.UTC(new Date(t).getUTCFullYear(), 0, 1)) / 86_400_000;
}

/** 0 at the end of January, 1 at the end of July: the convection season over Anatolia. */
export function summerness(t: number): number {
  return (1 - Math.cos((2 * Math.PI * (dayOfYear(t) - 30)) / 365.25)) / 2;
}

/** 1 in the mid-afternoon (15:00 Turkey time, UTC+3), 0 in the early morning. */
function afternoonness(t: number): number {
  const localHour = (((t / HOUR + 3) % 24) + 24) % 24;
  return (1 + Math.cos((2 * Math.PI * (localHour - 15)) / 24)) / 2;
}

function drawShape(rng: Random): Harmonic[] {
  return [2, 3, 4].map((k) => ({
    k,
    amp: rng.uniform(0.02, 0.07),
    phase: rng.uniform(0, 2 * Math.PI),
    radPerHour: rng.uniform(-0.8, 0.8),
  }));
}

function drawSystem(hour: number, index: number, rng: Random, opts: SimOptions): StormSystem {
  const birthMs = hour * HOUR + Math.floor(rng.uniform(0, HOUR));
  const pConvective = clamp(0.15 + 0.6 * summerness(birthMs) * (0.4 + 0.6 * afternoonness(birthMs)), 0.1, 0.85);
  const kind: StormKind = rng.chance(pConvective) ? 'convective' : 'frontal';
  const region = opts.region;
  // Frontal systems come in from the west; convection pops up anywhere.
  const lngSpan = region.maxLng - region.minLng;
  const origin = {
    lng: kind === 'frontal' ? rng.uniform(region.minLng, region.minLng + lngSpan * 0.6) : rng.uniform(region.minLng, region.maxLng),
    lat: rng.uniform(region.minLat, region.maxLat),
  };
  const convective = kind === 'convective';
  const system: StormSystem = {
    id: `s${hour}x${index}`,
    kind,
    birthMs,
    lifeMs: Math.round((convective ? rng.uniform(1, 4.5) : rng.uniform(4, 11)) * HOUR),
    origin,
    speedKmh: convective ? rng.uniform(12, 50) : rng.uniform(25, 60),
    directionDeg: (((convective ? rng.normal(60, 35) : rng.normal(90, 25)) % 360) + 360) % 360,
    maxRadiusKm: convective ? rng.uniform(10, 35) : rng.uniform(60, 170),
    peakRateMmPerH: convective ? clamp(rng.logNormal(28, 0.55), 8, 150) : clamp(rng.logNormal(5, 0.5), 1, 25),
    maxFlashesPerMin: convective ? clamp(rng.logNormal(7, 0.8), 0.5, 60) * opts.lightningScale : 0,
    cgFraction: rng.uniform(0.15, 0.35),
    shapes: Array.from({ length: 6 }, () => drawShape(rng)),
  };
  // The track has a stream of its own, so every draw above stays what it was before tracks existed.
  const track = drawTrack(system, new Random(opts.seed, `track:${system.id}`), opts.motionNoise);
  return track ? { ...system, track } : system;
}

/** The systems born during UTC hour `hour` (hours since the epoch), from their own stream. */
export function systemsBornIn(hour: number, opts: SimOptions): StormSystem[] {
  const rng = new Random(opts.seed, `spawn:${hour}`);
  const count = rng.poisson(opts.storms / MEAN_LIFE_H);
  return Array.from({ length: count }, (_, i) => drawSystem(hour, i, rng, opts));
}

/** Life of one demo storm; one is born every hour, so two overlap and one is always near maturity. */
export const DEMO_LIFE_MS = 2 * HOUR;
const DEMO_SPEED_KMH = 10;
const DEMO_DIRECTION_DEG = 70;

/**
 * The demo storm born in UTC hour `hour` over `opts.demoStorm`: convective with lightning in every
 * season. It is born half its path upwind and crosses the anchor at mid-life, so its centre stays
 * within 10 km of it; flashes fall within a few km of the centre. It never gets a motion track,
 * whatever `motionNoise`: the first start, its tests and the README rely on it staying that close.
 */
export function demoSystem(hour: number, opts: SimOptions): StormSystem | undefined {
  const anchor = opts.demoStorm;
  if (!anchor) return undefined;
  const rng = new Random(opts.seed, `demo:${hour}`);
  const halfPathKm = (DEMO_SPEED_KMH * DEMO_LIFE_MS) / HOUR / 2;
  return {
    id: `demo${hour}`,
    kind: 'convective',
    birthMs: hour * HOUR,
    lifeMs: DEMO_LIFE_MS,
    origin: moveKm(anchor, (DEMO_DIRECTION_DEG + 180) % 360, halfPathKm),
    speedKmh: DEMO_SPEED_KMH,
    directionDeg: DEMO_DIRECTION_DEG,
    maxRadiusKm: 20,
    peakRateMmPerH: 40,
    maxFlashesPerMin: 20 * opts.lightningScale,
    cgFraction: 0.3,
    shapes: Array.from({ length: 6 }, () => drawShape(rng)),
  };
}

/** The approach demo: a small fast cell born every 90 seconds upwind of `opts.demoApproach`, heading straight for it. */
export const APPROACH_DEMO = {
  everyMs: 90_000,
  /** Dies soon after it reaches the target: few alive at once, so a first start's backfill stays small. */
  lifeMs: 18 * 60_000,
  speedKmh: 60,
  /** Towards the east, as most Anatolian cells go. */
  directionDeg: 90,
  /** Born this far upwind: at 60 km/h its centre passes over the target 16 minutes after birth. */
  startKm: 16,
  maxRadiusKm: 5,
  /** Cell records every minute (rain at the radar's interval), so a registration made between two cells hears the next one coming. */
  scanMs: 60_000,
} as const;

/**
 * The approach demo's cells born in UTC hour `hour`: one every {@link APPROACH_DEMO}.everyMs, each on a
 * straight line (no motion noise) through the target, so a point alarm there with a warning stage
 * (filter approach) hears an APPROACHING and then a START within minutes, whenever it registers.
 */
export function approachDemoSystems(hour: number, opts: SimOptions): StormSystem[] {
  const target = opts.demoApproach;
  if (!target) return [];
  const d = APPROACH_DEMO;
  const origin = moveKm(target, (d.directionDeg + 180) % 360, d.startKm);
  return Array.from({ length: HOUR / d.everyMs }, (_, i) => {
    const rng = new Random(opts.seed, `approach:${hour}:${i}`);
    return {
      id: `approach${hour}-${i}`,
      kind: 'convective' as const,
      birthMs: hour * HOUR + i * d.everyMs,
      lifeMs: d.lifeMs,
      origin,
      speedKmh: d.speedKmh,
      directionDeg: d.directionDeg,
      maxRadiusKm: d.maxRadiusKm,
      peakRateMmPerH: 40,
      maxFlashesPerMin: 12 * opts.lightningScale,
      cgFraction: 0.3,
      shapes: Array.from({ length: 6 }, () => drawShape(rng)),
      scanMs: d.scanMs,
    };
  });
}

/** Lifecycle: grows, matures and decays; sin^0.7 keeps the mature phase broad. */
export function strengthAt(system: StormSystem, t: number): number {
  const f = (t - system.birthMs) / system.lifeMs;
  if (f <= 0 || f >= 1) return 0;
  return Math.sin(Math.PI * f) ** 0.7;
}

export function stateAt(system: StormSystem, t: number): StormState | undefined {
  const strength = strengthAt(system, t);
  if (strength <= 0) return undefined;
  return {
    strength,
    center: centerAt(system, t),
    radiusKm: system.maxRadiusKm * (0.35 + 0.65 * strength),
    peakRateMmPerH: system.peakRateMmPerH * strength,
    flashesPerMin: system.maxFlashesPerMin * strength ** 1.5,
  };
}

/** When `strength >= s` holds: the window [from, to] in epoch ms, or undefined if it never does. */
export function windowAbove(system: StormSystem, s: number): { from: number; to: number } | undefined {
  if (s > 1) return undefined;
  const f1 = Math.asin(Math.max(0, s) ** (1 / 0.7)) / Math.PI;
  return { from: system.birthMs + f1 * system.lifeMs, to: system.birthMs + (1 - f1) * system.lifeMs };
}

/**
 * Every system alive at `t`, oldest first. Births are looked up hour by hour and cached, since
 * consecutive ticks ask about the same hours.
 */
export class StormCatalogue {
  private readonly byHour = new Map<number, StormSystem[]>();

  constructor(private readonly opts: SimOptions) {}

  aliveAt(t: number): StormSystem[] {
    const last = Math.floor(t / HOUR);
    const first = Math.floor((t - MAX_LIFE_MS) / HOUR);
    for (const hour of this.byHour.keys()) if (hour < first) this.byHour.delete(hour);
    const alive: StormSystem[] = [];
    for (let hour = first; hour <= last; hour++) {
      let born = this.byHour.get(hour);
      if (!born) {
        born = this.bornIn(hour);
        this.byHour.set(hour, born);
      }
      for (const system of born) if (t > system.birthMs && t < system.birthMs + system.lifeMs) alive.push(system);
    }
    return alive;
  }

  /**
   * Every system alive at some instant of (from, to), by birth hour: what a benchmark walks to find
   * when storms really reach an area. Leaves the cache of the ticks alone, so a long window costs no memory.
   */
  aliveBetween(from: number, to: number): StormSystem[] {
    const alive: StormSystem[] = [];
    for (let hour = Math.floor((from - MAX_LIFE_MS) / HOUR); hour <= Math.floor(to / HOUR); hour++) {
      for (const system of this.byHour.get(hour) ?? this.bornIn(hour)) {
        if (system.birthMs < to && system.birthMs + system.lifeMs > from) alive.push(system);
      }
    }
    return alive;
  }

  private bornIn(hour: number): StormSystem[] {
    const demo = demoSystem(hour, this.opts);
    return [...(demo ? [demo] : []), ...approachDemoSystems(hour, this.opts), ...systemsBornIn(hour, this.opts)];
  }
}
