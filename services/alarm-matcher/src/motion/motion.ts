import { metresPerDegreeLat, metresPerDegreeLng, type Position } from '@stormhook/geometry';

/**
 * Direction convention of every motion Stormhook reports or reads: the direction the event moves
 * TOWARDS, degrees clockwise from true north (0 north, 90 east), as the feed contract defines it;
 * `fromDeg` (where it comes from, the NWS convention) is `towardDeg` + 180.
 */
export interface Motion {
  speedKmh: number;
  towardDeg: number;
  /** FEED: the publisher's motion vector; TRACK: estimated from the event's successive positions. */
  source: 'FEED' | 'TRACK';
  /** Minutes between the first and the latest position the matcher holds for the event. */
  trackAgeMin: number;
  /** Positions the matcher holds for the event (the latest included). */
  trackPoints: number;
  /**
   * 0..1: how steady the track has been. 1 for a track that moved in a straight line at one speed;
   * lower as the positions scatter around the fitted line; 0.5 for a feed vector with no track to check it.
   */
  quality: number;
}

/** Velocity in kilometres per minute, east and north: the form projection works in. */
export interface Velocity {
  eastKmPerMin: number;
  northKmPerMin: number;
}

const RAD = Math.PI / 180;

export function velocityOf(motion: Pick<Motion, 'speedKmh' | 'towardDeg'>): Velocity {
  const kmPerMin = motion.speedKmh / 60;
  return { eastKmPerMin: kmPerMin * Math.sin(motion.towardDeg * RAD), northKmPerMin: kmPerMin * Math.cos(motion.towardDeg * RAD) };
}

/** Speed (km/h) and direction towards (degrees clockwise from north, 0 to below 360) of a velocity. */
export function headingOf(velocity: Velocity): { speedKmh: number; towardDeg: number } {
  const speedKmh = Math.hypot(velocity.eastKmPerMin, velocity.northKmPerMin) * 60;
  const deg = Math.atan2(velocity.eastKmPerMin, velocity.northKmPerMin) / RAD;
  return { speedKmh, towardDeg: speedKmh === 0 ? 0 : ((deg % 360) + 360) % 360 };
}

/** Degrees of longitude and latitude per kilometre at a position (the ellipsoid's degree lengths). */
export function degreesPerKm(at: Position): { lng: number; lat: number } {
  return { lng: 1_000 / metresPerDegreeLng(at[1]), lat: 1_000 / metresPerDegreeLat(at[1]) };
}
