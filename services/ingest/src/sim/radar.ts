import type { feedV1 } from '@stormhook/proto';
import type { LngLat } from '../domain/geo/types.js';
import { INTENSITIES, type Intensity } from '../domain/intensity.js';
import { ringFromRadii, RING_SAMPLES, sampleBearing, shapeFactor } from './shapes.js';
import type { StormState, StormSystem } from './storms.js';

/** Rain rate (mm/h) at the lower edge of each intensity band; 0.1 mm/h is where radars stop seeing rain. */
export const BAND_FLOOR_MM_PER_H = [0.1, 0.5, 2.5, 10, 25, 50] as const;
/** Contours smaller than this are below radar resolution. */
const MIN_CONTOUR_KM = 1;
/** Inner contours stay this fraction inside the outer one at every bearing, so holes never touch. */
const NESTING = 0.9;

/**
 * Gaussian rain-rate profile: rate(r) = peak * exp(-(r/rho)^2), with rho chosen so the rain edge
 * (0.1 mm/h) lies at the system's radius. The contour of rate L is then at rho * sqrt(ln(peak/L)).
 */
export function contourRadiusKm(state: StormState, floor: number): number {
  if (state.peakRateMmPerH <= floor) return 0;
  const rho = state.radiusKm / Math.sqrt(Math.log(state.peakRateMmPerH / BAND_FLOOR_MM_PER_H[0]));
  return rho * Math.sqrt(Math.log(state.peakRateMmPerH / floor));
}

/** Per-bearing radii of contour `level` of a system at time t (hours since birth `hours`). */
export function contourRadii(system: StormSystem, state: StormState, level: number, hours: number): number[] | undefined {
  const mean = contourRadiusKm(state, BAND_FLOOR_MM_PER_H[level]!);
  if (mean < MIN_CONTOUR_KM) return undefined;
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const shape = {
    elongation: system.kind === 'frontal' ? 0.3 : 0.08,
    acrossRad: rad(system.directionDeg + 90),
    leadBulge: 0.05 * level,
    headingRad: rad(system.directionDeg),
  };
  const harmonics = system.shapes[level] ?? [];
  return Array.from({ length: RING_SAMPLES }, (_, i) => mean * Math.max(0.3, shapeFactor(harmonics, hours, sampleBearing(i), shape)));
}

/** The nested contours of a system: radii per level, each clamped inside the one below. */
export function nestedContours(system: StormSystem, state: StormState, t: number): number[][] {
  const hours = (t - system.birthMs) / 3_600_000;
  const levels: number[][] = [];
  for (let level = 0; level < BAND_FLOOR_MM_PER_H.length; level++) {
    const radii = contourRadii(system, state, level, hours);
    if (!radii) break;
    const outer = levels[level - 1];
    levels.push(outer ? radii.map((r, i) => Math.min(r, NESTING * outer[i]!)) : radii);
  }
  return levels;
}

export interface BandPolygon {
  intensity: Intensity;
  /** Mean rain rate inside the band (mm/h), for publishers that send rates. */
  meanRateMmPerH: number;
  polygon: feedV1.PrecipitationObservation['geometry'];
}

/**
 * The precipitation of a system as radar shows it: one polygon per intensity band, the band's
 * contour as exterior and the next band's contour as hole (so bands do not overlap).
 */
export function bandPolygons(center: LngLat, contours: readonly number[][], state: StormState): BandPolygon[] {
  return contours.map((radii, level) => {
    const inner = contours[level + 1];
    const floor = BAND_FLOOR_MM_PER_H[level]!;
    const ceiling = Math.min(BAND_FLOOR_MM_PER_H[level + 1] ?? state.peakRateMmPerH, state.peakRateMmPerH);
    return {
      intensity: INTENSITIES[level]!,
      meanRateMmPerH: Math.round(Math.sqrt(floor * Math.max(floor, ceiling)) * 100) / 100,
      polygon: {
        polygons: [{ exterior: ringFromRadii(center, radii, true), holes: inner ? [ringFromRadii(center, inner, false)] : [] }],
      },
    };
  });
}
