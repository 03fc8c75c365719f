import { WGS84_A, WGS84_E2 } from './ellipsoid.js';

const RAD = Math.PI / 180;

/** Metres along the meridian per degree of latitude at `lat` on WGS 84 (110,574 m at the equator, the least). */
export function metresPerDegreeLat(lat: number): number {
  const s = Math.sin(lat * RAD);
  return (WGS84_A * (1 - WGS84_E2) * RAD) / Math.pow(1 - WGS84_E2 * s * s, 1.5);
}

/** Metres along the parallel per degree of longitude at `lat` on WGS 84. */
export function metresPerDegreeLng(lat: number): number {
  const s = Math.sin(lat * RAD);
  return (WGS84_A * Math.cos(lat * RAD) * RAD) / Math.sqrt(1 - WGS84_E2 * s * s);
}

/** Metres per radian of the Earth, a little under the smallest radius of curvature, for the error bound. */
const ERROR_RADIUS_M = 6_300_000;

/**
 * A flat metric around a reference point, for hot loops that cannot afford a geodesic per test:
 * degrees of longitude and latitude times the ellipsoid's degree lengths at the reference. Its
 * relative error against the geodesic grows with the distance d (the parallels converge, and the
 * Earth curves): {@link LocalScale.tolerance} bounds it by q (|tan lat| / 2 + q) with q = d / 6,300 km,
 * which local-scale.spec.ts finds 2.5 times larger than the worst error it samples. Callers decide
 * exactly wherever a flat answer falls inside that band.
 */
export class LocalScale {
  /** Metres per degree of longitude and of latitude at the reference. */
  readonly kx: number;
  readonly ky: number;
  private readonly tanLat: number;

  constructor(
    readonly lng: number,
    readonly lat: number,
  ) {
    this.kx = metresPerDegreeLng(lat);
    this.ky = metresPerDegreeLat(lat);
    this.tanLat = Math.abs(Math.tan(lat * RAD));
  }

  /** Squared flat distance in square metres from the reference. */
  distanceSquared(lng: number, lat: number): number {
    const dx = (lng - this.lng) * this.kx;
    const dy = (lat - this.lat) * this.ky;
    return dx * dx + dy * dy;
  }

  /** [x east, y north] in metres from the reference, in the same metric. */
  project(lng: number, lat: number): [number, number] {
    return [(lng - this.lng) * this.kx, (lat - this.lat) * this.ky];
  }

  /**
   * Bound on the relative error of flat distances up to `reachM` from the reference (plus a
   * millimetre of rounding); Infinity where the bound was not measured (see {@link localScaleHolds}).
   */
  tolerance(reachM: number): number {
    if (!localScaleHolds(this.lng, this.lat, reachM)) return Infinity;
    const q = reachM / ERROR_RADIUS_M;
    return q * (this.tanLat / 2 + q);
  }
}

/**
 * Whether {@link LocalScale.tolerance} holds around (lng, lat) within `reachM`: not too near a pole,
 * and not across the antimeridian, where longitudes wrap (3° of longitude reach beyond 250 km below 70°).
 */
export function localScaleHolds(lng: number, lat: number, reachM: number): boolean {
  return reachM <= LOCAL_SCALE_MAX_M && Math.abs(lat) <= LOCAL_SCALE_MAX_LAT && Math.abs(lng) <= 177;
}

/** Farthest distance from the reference the tolerance was measured for. */
export const LOCAL_SCALE_MAX_M = 250_000;
/** Highest |latitude| of a reference the tolerance was measured for. */
export const LOCAL_SCALE_MAX_LAT = 70;
