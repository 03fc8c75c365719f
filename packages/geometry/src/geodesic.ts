import { WGS84_A as A, WGS84_B as B, WGS84_F as F } from './ellipsoid.js';
import type { Position } from './types.js';

/**
 * Geodesics on the WGS 84 ellipsoid (Vincenty 1975), the one distance and destination model of the
 * platform: alarm radii, circle crops, distances in payloads and nearest cells all use it, so "within
 * the radius" means the same wherever it is asked. Accurate to well below a millimetre at the
 * distances the platform handles (circles of at most 200 km); a sphere would be off by up to 0.5 %,
 * a kilometre at 200 km. Vincenty's iteration fails only for nearly antipodal points, which no
 * shape here comes near.
 */

const RAD = Math.PI / 180;

/** Vincenty's series coefficients A and B for a line whose azimuth at the equator has cos² α = `cos2Alpha`. */
function seriesOf(cos2Alpha: number): { bigA: number; bigB: number } {
  const uSq = (cos2Alpha * (A * A - B * B)) / (B * B);
  return {
    bigA: 1 + (uSq / 16384) * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq))),
    bigB: (uSq / 1024) * (256 + uSq * (-128 + uSq * (74 - 47 * uSq))),
  };
}

/** Vincenty's Δσ, the difference between the arc on the auxiliary sphere and the scaled line. */
function deltaSigmaOf(bigB: number, sinSigma: number, cosSigma: number, cos2SigmaM: number): number {
  return (
    bigB *
    sinSigma *
    (cos2SigmaM +
      (bigB / 4) *
        (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - (bigB / 6) * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
  );
}

export interface Inverse {
  /** Geodesic distance in metres. */
  distanceM: number;
  /** Forward azimuth at the first point, radians clockwise from north. */
  azimuth: number;
}

/** Distance and initial azimuth from (lng1, lat1) to (lng2, lat2), decimal degrees. */
export function inverse(lng1: number, lat1: number, lng2: number, lat2: number): Inverse {
  const L = (lng2 - lng1) * RAD;
  const U1 = Math.atan((1 - F) * Math.tan(lat1 * RAD));
  const U2 = Math.atan((1 - F) * Math.tan(lat2 * RAD));
  const sinU1 = Math.sin(U1);
  const cosU1 = Math.cos(U1);
  const sinU2 = Math.sin(U2);
  const cosU2 = Math.cos(U2);
  let lambda = L;
  let sinSigma = 0;
  let cosSigma = 1;
  let sigma = 0;
  let cos2Alpha = 1;
  let cos2SigmaM = 0;
  let sinLambda = 0;
  let cosLambda = 1;
  for (let i = 0; i < 200; i++) {
    sinLambda = Math.sin(lambda);
    cosLambda = Math.cos(lambda);
    const t1 = cosU2 * sinLambda;
    const t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda;
    sinSigma = Math.sqrt(t1 * t1 + t2 * t2);
    if (sinSigma === 0) return { distanceM: 0, azimuth: 0 }; // coincident points
    cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
    sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinLambda) / sinSigma;
    cos2Alpha = 1 - sinAlpha * sinAlpha;
    cos2SigmaM = cos2Alpha !== 0 ? cosSigma - (2 * sinU1 * sinU2) / cos2Alpha : 0; // equatorial line
    const C = (F / 16) * cos2Alpha * (4 + F * (4 - 3 * cos2Alpha));
    const previous = lambda;
    lambda = L + (1 - C) * F * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)));
    if (Math.abs(lambda - previous) < 1e-12) break;
  }
  const { bigA, bigB } = seriesOf(cos2Alpha);
  const distanceM = B * bigA * (sigma - deltaSigmaOf(bigB, sinSigma, cosSigma, cos2SigmaM));
  const azimuth = Math.atan2(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda);
  return { distanceM, azimuth };
}

/** Geodesic distance in metres between two positions: THE distance of the platform. */
export function distanceM(a: Position, b: Position): number {
  return inverse(a[0], a[1], b[0], b[1]).distanceM;
}

/** The point `distance` metres from (lng, lat) along initial azimuth `azimuth` (radians from north). */
export function direct(lng: number, lat: number, azimuth: number, distance: number): [number, number] {
  const sinAlpha1 = Math.sin(azimuth);
  const cosAlpha1 = Math.cos(azimuth);
  const tanU1 = (1 - F) * Math.tan(lat * RAD);
  const cosU1 = 1 / Math.sqrt(1 + tanU1 * tanU1);
  const sinU1 = tanU1 * cosU1;
  const sigma1 = Math.atan2(tanU1, cosAlpha1);
  const sinAlpha = cosU1 * sinAlpha1;
  const cos2Alpha = 1 - sinAlpha * sinAlpha;
  const { bigA, bigB } = seriesOf(cos2Alpha);
  let sigma = distance / (B * bigA);
  let sinSigma = 0;
  let cosSigma = 1;
  let cos2SigmaM = 0;
  for (let i = 0; i < 200; i++) {
    cos2SigmaM = Math.cos(2 * sigma1 + sigma);
    sinSigma = Math.sin(sigma);
    cosSigma = Math.cos(sigma);
    const previous = sigma;
    sigma = distance / (B * bigA) + deltaSigmaOf(bigB, sinSigma, cosSigma, cos2SigmaM);
    if (Math.abs(sigma - previous) < 1e-12) break;
  }
  const x = sinU1 * sinSigma - cosU1 * cosSigma * cosAlpha1;
  const lat2 = Math.atan2(sinU1 * cosSigma + cosU1 * sinSigma * cosAlpha1, (1 - F) * Math.sqrt(sinAlpha * sinAlpha + x * x));
  const lambda = Math.atan2(sinSigma * sinAlpha1, cosU1 * cosSigma - sinU1 * sinSigma * cosAlpha1);
  const C = (F / 16) * cos2Alpha * (4 + F * (4 - 3 * cos2Alpha));
  const L = lambda - (1 - C) * F * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)));
  let lng2 = lng + L / RAD;
  if (lng2 > 180) lng2 -= 360;
  if (lng2 < -180) lng2 += 360;
  return [lng2, lat2 / RAD];
}
