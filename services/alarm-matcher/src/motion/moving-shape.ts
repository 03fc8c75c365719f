import { centroidOf, type BBox, type MultiPolygon, type Position, type Ring } from '@stormhook/geometry';
import { degreesPerKm, type Velocity } from './motion.js';

/** The polygon at one moment of its projected path. */
export interface Placed {
  polygon: MultiPolygon;
  box: BBox;
}

/**
 * An event's polygon moved rigidly along its velocity: the shape itself, not only its centroid, so an
 * elongated cell or a rain band reaches an area when its leading edge does. The shift is flat (degree
 * lengths at the polygon's centroid): over an hour's path of at most 150 km its error is metres,
 * far inside the uncertainty of the motion itself.
 */
export class MovingShape {
  readonly origin: Position;
  /** Degrees the polygon moves per minute (longitude, latitude). */
  readonly lngPerMin: number;
  readonly latPerMin: number;
  private readonly steps = new Map<number, Placed>();

  constructor(
    readonly polygon: MultiPolygon,
    readonly box: BBox,
    readonly velocity: Velocity,
  ) {
    this.origin = centroidOf(polygon);
    const per = degreesPerKm(this.origin);
    this.lngPerMin = velocity.eastKmPerMin * per.lng;
    this.latPerMin = velocity.northKmPerMin * per.lat;
  }

  get moving(): boolean {
    return this.lngPerMin !== 0 || this.latPerMin !== 0;
  }

  /** The box of the polygon at `minutes` (negative: in the past), without moving the polygon. */
  boxAt(minutes: number): BBox {
    const dx = this.lngPerMin * minutes;
    const dy = this.latPerMin * minutes;
    return { minLng: this.box.minLng + dx, minLat: this.box.minLat + dy, maxLng: this.box.maxLng + dx, maxLat: this.box.maxLat + dy };
  }

  /** Everything the polygon covers between `fromMin` and `toMin`: the box of its swept path. */
  sweptBox(fromMin: number, toMin: number): BBox {
    const a = this.boxAt(fromMin);
    const b = this.boxAt(toMin);
    return {
      minLng: Math.min(a.minLng, b.minLng),
      minLat: Math.min(a.minLat, b.minLat),
      maxLng: Math.max(a.maxLng, b.maxLng),
      maxLat: Math.max(a.maxLat, b.maxLat),
    };
  }

  /** The polygon at `minutes`; whole minutes are kept, since every area along the path asks for the same ones. */
  at(minutes: number): Placed {
    const whole = Number.isInteger(minutes);
    const held = whole ? this.steps.get(minutes) : undefined;
    if (held) return held;
    const dx = this.lngPerMin * minutes;
    const dy = this.latPerMin * minutes;
    const shift = (ring: Ring): Ring => ring.map(([lng, lat]): Position => [lng + dx, lat + dy]);
    const polygon: MultiPolygon = this.polygon.map((part) => ({ exterior: shift(part.exterior), holes: part.holes.map(shift) }));
    const placed = { polygon, box: this.boxAt(minutes) };
    if (whole) this.steps.set(minutes, placed);
    return placed;
  }

  /** Where a point of the polygon is after `minutes`. */
  pointAt(point: Position, minutes: number): Position {
    return [point[0] + this.lngPerMin * minutes, point[1] + this.latPerMin * minutes];
  }
}
