import type { feedV1, weatherV1 } from '@stormhook/proto';
import { areaKm2 } from '../domain/geo/measure.js';
import type { PolygonShape } from '../domain/geo/types.js';
import { nearestCity } from './cities.js';
import { moveKm, roundCoord } from './geo-math.js';
import { observedMotion } from './motion.js';
import { contourRadiusKm, nestedContours } from './radar.js';
import { ringFromRadii, sweptDisc } from './shapes.js';
import { stateAt, windowAbove, type StormSystem } from './storms.js';
import { Random } from './random.js';

/** A cluster counts as a thunderstorm from this many flashes per minute (the record's threshold). */
export const CELL_THRESHOLD_FLASHES_PER_MIN = 2;
/** ... and once its core rains at least this hard (the HEAVY band). */
const CELL_CORE_MM_PER_H = 10;
const HEAVY_LEVEL = 3;

/** When a convective system is a thunderstorm cell: both its core and its flash rate above threshold. */
export function cellWindow(system: StormSystem): { from: number; to: number } | undefined {
  if (system.kind !== 'convective' || system.maxFlashesPerMin <= 0) return undefined;
  const needed = Math.max(CELL_CORE_MM_PER_H / system.peakRateMmPerH, (CELL_THRESHOLD_FLASHES_PER_MIN / system.maxFlashesPerMin) ** (1 / 1.5));
  return windowAbove(system, needed);
}

function severityOf(flashes: number, speedKmh: number): weatherV1.ThunderstormSeverity {
  if (flashes >= 15 || speedKmh >= 60) return 'THUNDERSTORM_SEVERITY_HIGH';
  if (flashes >= 6 || speedKmh >= 40) return 'THUNDERSTORM_SEVERITY_MEDIUM';
  return 'THUNDERSTORM_SEVERITY_LOW';
}

/**
 * The true outline of a system's thunderstorm cell at t (its HEAVY rain core), exactly the polygon its
 * cell record carries at a scan; undefined while the system is not a thunderstorm (outside
 * cellWindow). A benchmark steps this minute by minute to find when a cell really enters an area.
 */
export function cellPolygonAt(system: StormSystem, t: number): PolygonShape | undefined {
  const window = cellWindow(system);
  const state = stateAt(system, t);
  if (!window || !state || t < window.from || t > window.to) return undefined;
  const contours = nestedContours(system, state, t);
  const core = contours[HEAVY_LEVEL] ?? contours[contours.length - 1];
  if (!core) return undefined;
  return { exterior: ringFromRadii(state.center, core, true), holes: [] };
}

/**
 * The tracker's record of a cell at scan time `t`: one source id per cell for its whole life, the
 * version counting its scans, so each scan supersedes the previous one. Its motion is what a tracker
 * can know at t, the displacement over the last two scans (observedMotion), never the true velocity
 * ahead; the threat polygon is the cell swept along that motion for the next hour.
 */
export function cellRecord(system: StormSystem, t: number, scanMs: number, seed: number): feedV1.ThunderstormCell | undefined {
  const window = cellWindow(system);
  const state = stateAt(system, t);
  const polygon = cellPolygonAt(system, t);
  if (!window || !state || !polygon) return undefined;
  const coreKm = Math.max(3, contourRadiusKm(state, CELL_CORE_MM_PER_H));
  const motion = observedMotion(system, t);
  const speed = Math.round(motion.speedKmh * 10) / 10;
  const rates = {
    inCloud: Math.round(state.flashesPerMin * (1 - system.cgFraction) * 100) / 100,
    cloudToGround: Math.round(state.flashesPerMin * system.cgFraction * 100) / 100,
    total: Math.round(state.flashesPerMin * 100) / 100,
  };
  const start = Math.round(window.from);
  const city = nearestCity(state.center);
  return {
    sourceEventId: `sim${seed}-${system.id}-cell`,
    version: Math.floor((t - start) / scanMs) + 1,
    updatedEpochMs: t,
    insertedEpochMs: start,
    startEpochMs: start,
    endEpochMs: Math.round(window.to),
    severity: severityOf(state.flashesPerMin, motion.speedKmh),
    threshold: CELL_THRESHOLD_FLASHES_PER_MIN,
    speedUnit: 'SPEED_UNIT_KILOMETRES_PER_HOUR',
    meta: { country: city.country, state: city.name, city: city.name, speed },
    cell: {
      areaKm2: Math.round(areaKm2([polygon]) * 100) / 100,
      speed,
      directionDeg: Math.round(motion.directionDeg) % 360,
      flashRates: rates,
      centroid: roundCoord(state.center),
      polygon,
    },
    threatPolygon: { exterior: sweptDisc(state.center, coreKm * 1.5 + 3, motion.directionDeg, motion.speedKmh), holes: [] },
  };
}

/**
 * The flashes of a system in the tick (t - tickMs, t]: a Poisson count at the system's flash rate,
 * scattered around the core (lightning clusters in the convective cores), each drawn from the
 * stream of this system and tick so it never changes between runs.
 */
export function flashes(system: StormSystem, t: number, tickMs: number, seed: number): feedV1.LightningStrike[] {
  const state = stateAt(system, t);
  if (!state || state.flashesPerMin <= 0) return [];
  const tick = Math.round(t / tickMs);
  const rng = new Random(seed, `lightning:${system.id}:${tick}`);
  const count = rng.poisson((state.flashesPerMin * tickMs) / 60_000);
  const spreadKm = Math.max(2, 0.5 * contourRadiusKm(state, CELL_CORE_MM_PER_H));
  const out: feedV1.LightningStrike[] = [];
  for (let n = 0; n < count; n++) {
    const at = roundCoord(moveKm(moveKm(state.center, 90, rng.normal(0, spreadKm)), 0, rng.normal(0, spreadKm)));
    const cloudToGround = rng.chance(system.cgFraction);
    const positive = cloudToGround ? rng.chance(0.1) : rng.chance(0.5);
    const kiloamps = cloudToGround ? rng.logNormal(positive ? 30 : 18, 0.6) : rng.logNormal(6, 0.6);
    const strike: feedV1.LightningStrike = {
      sourceEventId: `sim${seed}-${system.id}-f${tick}-${n}`,
      version: 0,
      updatedEpochMs: 0,
      timeEpochMs: t - tickMs + 1 + Math.floor(rng.next() * (tickMs - 1)),
      type: cloudToGround ? 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND' : 'LIGHTNING_TYPE_FLASH_IN_CLOUD',
      latitude: at.lat,
      longitude: at.lng,
      peakCurrentAmperes: Math.round(Math.min(kiloamps, 450) * 1000) * (positive ? 1 : -1),
      // Negative cloud-to-ground flashes have several strokes; positive ones and in-cloud flashes mostly one.
      multiplicity: cloudToGround && !positive ? 1 + rng.geometric(0.35, 14) : 1,
    };
    if (!cloudToGround) strike.inCloudHeightM = Math.round(Math.min(16_000, Math.max(2_000, rng.normal(8_000, 2_000))));
    out.push(strike);
  }
  return out;
}
