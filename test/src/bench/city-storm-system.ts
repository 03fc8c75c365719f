import { bboxOfMultiPolygon, type BBox, type MultiPolygon } from '@stormhook/geometry';
import { EventTypes, type EventToPublish } from '@stormhook/kafka';
import { feedV1, type commonV1 } from '@stormhook/proto';
import { lcg, type Point } from '../faults/storm.js';

/**
 * The severe storm system of the city-storm benchmark: a squall line that crosses İstanbul from west
 * to east in `seconds` (a compressed day: a real one takes an hour or two), carrying thunderstorm
 * cells along the line and broader rain areas trailing it. Every cell and rain area is republished as
 * a new revision at fixed times as it moves; its last revision places it east of the city, beyond
 * the reach of every İstanbul alarm, so each registration it touched hears its END within the run.
 * Strikes fall around the cells. Positions are a pure function of the fraction of the storm elapsed,
 * so a short smoke run is the same storm, faster.
 */

/** The line starts west of the city and ends east of it (İstanbul spans about 27.97-29.93 E). */
const LINE_WEST = 27.85;
const LINE_EAST = 30.05;
/** Where a cell or rain area goes for its last revision: east of every İstanbul alarm's reach (10 km past 29.93). */
const GONE_EAST = 30.6;

export const CELL_REVISIONS = 20;
export const RAIN_REVISIONS = 10;

export type SeverityName = 'LOW' | 'MEDIUM' | 'HIGH';
export type IntensityName = 'DRIZZLE' | 'LIGHT' | 'MODERATE' | 'HEAVY' | 'VERY_HEAVY' | 'EXTREME';

interface CellTrack {
  id: string;
  lat: number;
  /** Degrees of longitude ahead of (+) or behind (-) the line. */
  offset: number;
  severity: SeverityName;
  speedKmh: number;
}

interface RainTrack {
  id: string;
  lat: number;
  offset: number;
  intensity: IntensityName;
}

/** One revision of a tracked event, as the matcher will see it after ingest. */
export interface TrackedRevision {
  kind: 'THUNDERSTORM' | 'PRECIPITATION';
  /** The feed's source event id (the thunderstorm payload's eventId; precipitation's is prc_ + it). */
  sourceId: string;
  version: number;
  /** Seconds into the storm when it is published. */
  atS: number;
  /** Unique id of this record (latency is timed from its publication). */
  recordId: string;
  /** Cell polygon (thunderstorm) or the rain area. */
  polygon: MultiPolygon;
  box: BBox;
  /** Thunderstorm only: the threat polygon ahead of the cell. */
  threat?: MultiPolygon;
  threatBox?: BBox;
  severity?: SeverityName;
  speedKmh?: number;
  intensity?: IntensityName;
}

/** A strike over the city: it is the only kind whose callbacks are expected. */
export interface CityStrike {
  point: Point;
}

const rect = (lng: number, lat: number, halfLng: number, halfLat: number): MultiPolygon => [
  {
    exterior: [
      [lng - halfLng, lat - halfLat],
      [lng + halfLng, lat - halfLat],
      [lng + halfLng, lat + halfLat],
      [lng - halfLng, lat + halfLat],
      [lng - halfLng, lat - halfLat],
    ],
    holes: [],
  },
];

const toProto = (multi: MultiPolygon): commonV1.Polygon => ({
  exterior: { points: multi[0]!.exterior.map(([lng, lat]) => ({ lng, lat })) },
  holes: [],
});

export class CityStormSystem {
  readonly cells: CellTrack[];
  readonly rains: RainTrack[];
  /** Every tracked revision in publication order. */
  readonly revisions: TrackedRevision[] = [];

  constructor(
    readonly seconds: number,
    readonly runId: string,
  ) {
    const severities: SeverityName[] = ['HIGH', 'MEDIUM', 'MEDIUM', 'HIGH', 'MEDIUM', 'LOW', 'HIGH', 'MEDIUM'];
    this.cells = [40.86, 40.96, 41.04, 41.12, 41.2, 41.28, 41.37, 41.46].map((lat, i) => ({
      id: `${runId}-cell${i}`,
      lat,
      offset: [0.05, -0.1, 0.12, -0.04, 0.08, -0.15, 0.02, -0.08][i]!,
      severity: severities[i]!,
      speedKmh: 35 + 5 * i,
    }));
    const intensities: IntensityName[] = ['MODERATE', 'HEAVY', 'VERY_HEAVY', 'LIGHT'];
    this.rains = [40.98, 41.12, 41.26, 41.4].map((lat, i) => ({ id: `${runId}-rain${i}`, lat, offset: -0.22 - 0.04 * i, intensity: intensities[i]! }));
    for (const [count, kind] of [
      [CELL_REVISIONS, 'THUNDERSTORM'],
      [RAIN_REVISIONS, 'PRECIPITATION'],
    ] as const) {
      // Revision k at k/count of the storm; one more, the last, at its end, moved out of the city.
      for (let k = 0; k <= count; k++) {
        const atS = (k / count) * seconds;
        const gone = k === count;
        if (kind === 'THUNDERSTORM') for (const cell of this.cells) this.revisions.push(this.cellRevision(cell, k + 1, atS, gone));
        else for (const rain of this.rains) this.revisions.push(this.rainRevision(rain, k + 1, atS, gone));
      }
    }
    this.revisions.sort((a, b) => a.atS - b.atS);
  }

  /** Longitude of the line `atS` seconds into the storm. */
  lineAt(atS: number): number {
    return LINE_WEST + (LINE_EAST - LINE_WEST) * Math.min(1, Math.max(0, atS / this.seconds));
  }

  private cellRevision(cell: CellTrack, version: number, atS: number, gone: boolean): TrackedRevision {
    const lng = gone ? GONE_EAST : this.lineAt(atS) + cell.offset;
    const polygon = rect(lng, cell.lat, 0.05, 0.035);
    // The threat area lies ahead of the cell, in the direction it moves (east).
    const threat = rect(lng + 0.1, cell.lat, 0.07, 0.05);
    return {
      kind: 'THUNDERSTORM',
      sourceId: cell.id,
      version,
      atS,
      recordId: `${cell.id}@${version}`,
      polygon,
      box: bboxOfMultiPolygon(polygon),
      threat,
      threatBox: bboxOfMultiPolygon(threat),
      severity: cell.severity,
      speedKmh: cell.speedKmh,
    };
  }

  private rainRevision(rain: RainTrack, version: number, atS: number, gone: boolean): TrackedRevision {
    const lng = gone ? GONE_EAST : this.lineAt(atS) + rain.offset;
    const polygon = rect(lng, rain.lat, 0.14, 0.07);
    return {
      kind: 'PRECIPITATION',
      sourceId: rain.id,
      version,
      atS,
      recordId: `${rain.id}@${version}`,
      polygon,
      box: bboxOfMultiPolygon(polygon),
      intensity: rain.intensity,
    };
  }

  /**
   * `count` strikes over the city, strike k at (k + 1) / count of the storm (the spacing the Storm
   * publisher gives its target strikes), each around a cell near the city at that moment (a normal
   * spread of about 3 km).
   */
  cityStrikes(count: number, cityBox: BBox, seed = 3434): CityStrike[] {
    const random = lcg(seed);
    const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return Array.from({ length: count }, (_, k) => {
      const line = this.lineAt(((k + 1) / count) * this.seconds);
      const near = this.cells.filter((c) => line + c.offset >= cityBox.minLng - 0.05 && line + c.offset <= cityBox.maxLng + 0.05);
      const cell = (near.length > 0 ? near : this.cells)[Math.floor(random() * (near.length > 0 ? near.length : this.cells.length))]!;
      return { point: { lng: line + cell.offset + 0.03 * gauss(), lat: cell.lat + 0.02 * gauss() } };
    });
  }

  /** The feed record of a revision, published `atMs` (its times are the publisher's clock). */
  feedRecord(revision: TrackedRevision, stormStartMs: number, atMs: number): { topic: 'thunderstorm' | 'precipitation'; event: EventToPublish } {
    if (revision.kind === 'THUNDERSTORM') {
      const cell: feedV1.ThunderstormCell = {
        sourceEventId: revision.sourceId,
        version: revision.version,
        updatedEpochMs: 0,
        insertedEpochMs: stormStartMs,
        startEpochMs: stormStartMs,
        // Alive well past the run, so nothing expires before its last revision moved it away.
        endEpochMs: stormStartMs + this.seconds * 1000 + 30 * 60_000,
        severity: `THUNDERSTORM_SEVERITY_${revision.severity!}`,
        threshold: 3,
        speedUnit: 'SPEED_UNIT_KILOMETRES_PER_HOUR',
        meta: { country: 'TUR', state: '', city: 'İstanbul', speed: revision.speedKmh! },
        cell: {
          areaKm2: 80,
          speed: revision.speedKmh!,
          directionDeg: 90,
          flashRates: { inCloud: 12, cloudToGround: 3, total: 15 },
          centroid: { lng: (revision.box.minLng + revision.box.maxLng) / 2, lat: (revision.box.minLat + revision.box.maxLat) / 2 },
          polygon: toProto(revision.polygon),
        },
        threatPolygon: toProto(revision.threat!),
      };
      return {
        topic: 'thunderstorm',
        event: { key: revision.sourceId, value: feedV1.ThunderstormCell.encode(cell), eventType: EventTypes.ThunderstormCell },
      };
    }
    const rain: feedV1.PrecipitationObservation = {
      sourceEventId: revision.sourceId,
      version: revision.version,
      updatedEpochMs: 0,
      radarTimestampEpochMs: atMs,
      forecast: false,
      intensity: `PRECIPITATION_INTENSITY_${revision.intensity!}`,
      geometry: { polygons: [toProto(revision.polygon)] },
      motion: { speedKmh: 60, directionDeg: 90 },
    };
    return {
      topic: 'precipitation',
      event: { key: revision.sourceId, value: feedV1.PrecipitationObservation.encode(rain), eventType: EventTypes.PrecipitationObservation },
    };
  }
}
