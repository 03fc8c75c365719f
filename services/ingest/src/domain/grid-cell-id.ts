import type { LngLat } from './geo/types.js';

/**
 * The cell id both forecast publishers of this repository (simulator and Open-Meteo adapter) give a
 * grid point: its coordinates with hemisphere letters, e.g. 40.000N_33.000E. Stable across runs, so a
 * reader can follow one point from run to run.
 */
export function gridCellId(p: LngLat): string {
  return `${Math.abs(p.lat).toFixed(3)}${p.lat >= 0 ? 'N' : 'S'}_${Math.abs(p.lng).toFixed(3)}${p.lng >= 0 ? 'E' : 'W'}`;
}

/** Points of a regular grid over a box, south-west first, coordinates rounded to 0.001 degree. */
export function regularGrid(box: { minLng: number; minLat: number; maxLng: number; maxLat: number }, stepDeg: number): Array<{ id: string; p: LngLat }> {
  const points: Array<{ id: string; p: LngLat }> = [];
  const rows = Math.floor((box.maxLat - box.minLat) / stepDeg + 1e-9);
  const cols = Math.floor((box.maxLng - box.minLng) / stepDeg + 1e-9);
  for (let i = 0; i <= rows; i++) {
    for (let j = 0; j <= cols; j++) {
      const p = { lng: Math.round((box.minLng + j * stepDeg) * 1000) / 1000, lat: Math.round((box.minLat + i * stepDeg) * 1000) / 1000 };
      points.push({ id: gridCellId(p), p });
    }
  }
  return points;
}
