import type { LngLat } from '../domain/geo/types.js';

const KM_PER_DEG_LAT = 110.574;
const KM_PER_DEG_LNG_EQ = 111.32;

/** Moves a point by (east, north) kilometres; fine for the few hundred km of a storm's life. */
export function offsetKm(p: LngLat, eastKm: number, northKm: number): LngLat {
  return {
    lng: p.lng + eastKm / (KM_PER_DEG_LNG_EQ * Math.cos((p.lat * Math.PI) / 180)),
    lat: p.lat + northKm / KM_PER_DEG_LAT,
  };
}

/** Moves a point `km` kilometres towards `bearingDeg` (clockwise from north). */
export function moveKm(p: LngLat, bearingDeg: number, km: number): LngLat {
  const rad = (bearingDeg * Math.PI) / 180;
  return offsetKm(p, km * Math.sin(rad), km * Math.cos(rad));
}

/** Approximate distance in km (equirectangular); enough for weather fields on a 0.25 degree grid. */
export function distanceKm(a: LngLat, b: LngLat): number {
  const midLat = ((a.lat + b.lat) / 2) * (Math.PI / 180);
  const dx = (b.lng - a.lng) * KM_PER_DEG_LNG_EQ * Math.cos(midLat);
  const dy = (b.lat - a.lat) * KM_PER_DEG_LAT;
  return Math.hypot(dx, dy);
}

/** Rounds a coordinate to 1e-5 degrees (about a metre): shorter records, stable bytes. */
export function roundCoord(p: LngLat): LngLat {
  return { lng: Math.round(p.lng * 1e5) / 1e5, lat: Math.round(p.lat * 1e5) / 1e5 };
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
