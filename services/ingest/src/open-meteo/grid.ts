import { gridCellId, regularGrid } from '../domain/grid-cell-id.js';
import type { LngLat } from '../domain/geo/types.js';

export interface GridPoint {
  /** Stable id of the point, e.g. 40.000N_33.000E (the simulator's scheme, so both feeds share cells). */
  id: string;
  p: LngLat;
}

/**
 * The grid to fetch, from `minLng,minLat,maxLng,maxLat:step` (a regular grid, step in degrees) or
 * `lat,lng;lat,lng;...` (explicit points).
 */
export function parseGrid(text: string): GridPoint[] {
  const spec = text.trim();
  const regular = /^([^:]+):([0-9.]+)$/.exec(spec);
  if (regular) {
    const box = regular[1]!.split(',').map(Number);
    const step = Number(regular[2]);
    const [minLng, minLat, maxLng, maxLat] = box as [number, number, number, number];
    if (box.length !== 4 || box.some((n) => !Number.isFinite(n)) || minLng >= maxLng || minLat >= maxLat || !(step > 0)) {
      throw new Error(`grid "${text}": use minLng,minLat,maxLng,maxLat:step`);
    }
    return regularGrid({ minLng, minLat, maxLng, maxLat }, step);
  }
  return spec.split(';').map((pair) => {
    const [lat, lng] = pair.split(',').map(Number) as [number, number];
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
      throw new Error(`grid point "${pair}": use lat,lng in decimal degrees`);
    }
    const p = { lng, lat };
    return { id: gridCellId(p), p };
  });
}
