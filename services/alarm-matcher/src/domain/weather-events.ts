import type { BBox, MultiPolygon, Position } from '@stormhook/geometry';
import type { Intensity, LightningType, Severity } from './weather-enums.js';

/** A located lightning discharge (weather.lightning.v1), units as in the filters. */
export interface Strike {
  eventId: string;
  sourceEventId: string;
  revision: number;
  timeMs: number;
  type: LightningType;
  lng: number;
  lat: number;
  /** Signed, amperes; negative = negative polarity. */
  peakCurrentA: number;
  /** Metres above mean sea level; absent for cloud-to-ground. */
  inCloudHeightM?: number;
  multiplicity: number;
}

export interface FlashRates {
  inCloud: number;
  cloudToGround: number;
  total: number;
}

/** One revision of a tracked thunderstorm cell (weather.thunderstorm.v1). */
export interface Storm {
  eventId: string;
  sourceEventId: string;
  revision: number;
  insertedMs: number;
  /** When the polygons were observed (the publisher's update time, else ingest's): the time projections start from. */
  observedMs: number;
  startMs: number;
  endMs: number;
  severity: Severity;
  /** Minimum flash rate for a cluster to count as a thunderstorm, flashes per minute. */
  threshold: number;
  /** Storm speed in km/h: meta speed, or the cell's when the feed gave none. */
  speedKmh: number;
  meta: { country: string; state: string; city: string };
  cell: {
    areaKm2: number;
    speedKmh: number;
    directionDeg: number;
    flashRates: FlashRates;
    centroid: Position;
    polygon: MultiPolygon;
    box: BBox;
  };
  /** Area the cell is expected to affect; empty when the feed sent none. */
  threat: MultiPolygon;
  threatBox: BBox;
}

/** One revision of a precipitation area (weather.precipitation.v1). */
export interface Rain {
  eventId: string;
  sourceEventId: string;
  revision: number;
  /** Radar scan time, or the valid time of a nowcast: also the time projections start from. */
  timeMs: number;
  /** The publisher's motion vector (towards, clockwise from north), when it sent one. */
  motion?: { speedKmh: number; directionDeg: number };
  forecast: boolean;
  intensity: Intensity;
  rainRateMmPerH?: number;
  geometry: MultiPolygon;
  box: BBox;
  centroid: Position;
  areaKm2: number;
}
