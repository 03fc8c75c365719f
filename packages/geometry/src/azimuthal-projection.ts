import { direct, inverse } from './geodesic.js';

/**
 * Azimuthal equidistant projection centred on a point: x east, y north, in metres, such that the
 * distance of (x, y) from the origin IS the geodesic distance from the centre. A geodesic circle
 * around the centre is therefore an exact Euclidean circle in this plane, which makes cropping and
 * circle tests plane geometry. Orientation (counterclockwise stays counterclockwise) is preserved.
 */
export class LocalProjection {
  constructor(
    readonly lng: number,
    readonly lat: number,
  ) {}

  forward(lng: number, lat: number): [number, number] {
    const { distanceM: s, azimuth } = inverse(this.lng, this.lat, lng, lat);
    return [s * Math.sin(azimuth), s * Math.cos(azimuth)];
  }

  backward(x: number, y: number): [number, number] {
    return direct(this.lng, this.lat, Math.atan2(x, y), Math.hypot(x, y));
  }
}
