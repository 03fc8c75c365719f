import type { PrecipitationRecord, RingPolygon, ThunderstormRecord } from '../api/types.js';
import type { LightningEventData, PrecipitationEventData, ThunderstormEventData } from '@stormhook/webhooks/stream-events';
import { collection, linearPath, ringGeometry, type Feature, type FeatureCollection, type Position } from './geojson.js';

/** Lightning older than this is gone from the map (the issue: the last 10 minutes, fading). */
export const LIGHTNING_WINDOW_MS = 10 * 60_000;
/** A strike is drawn alone (a flash) this long; after that it is counted in its grid cell and minute. */
const FLASH_MS = 5_000;
/** Flashes drawn at most: at 1,000 strikes/s the newest 5 s would be 5,000 points, each sent to the map's worker each second. */
const MAX_FLASHES = 2_500;
/**
 * Grid of the older strikes, degrees (about 5 km): a pixel or two of a map of the whole country, and
 * few enough points that a storm of 1,000 strikes/s is a few hundred features to redraw each second.
 */
const CELL_DEG = 0.05;
/** A storm not updated for this long has ended (the feed scans every few minutes). */
const STORM_STALE_MS = 20 * 60_000;
/** Rain areas of scans older than this behind the newest scan are replaced by it. */
const RAIN_SCAN_SPREAD_MS = 90_000;
const RAIN_STALE_MS = 20 * 60_000;

interface Storm {
  eventId: string;
  severity: string;
  updatedMs: number;
  cell: RingPolygon | undefined;
  threat: RingPolygon | undefined;
  centroid: { lng: number; lat: number } | undefined;
  speedKmh: number;
  directionDeg: number;
  /** The predicted centroid path (the stream's, or extrapolated here from speed and heading). */
  path: Position[];
  /** The stream's cell outline at the horizon, when it sent one. */
  horizon: RingPolygon | undefined;
}

interface Rain {
  eventId: string;
  intensity: string;
  radarMs: number;
  forecast: boolean;
  polygons: Position[][][];
}

interface Flash {
  lng: number;
  lat: number;
  ms: number;
  cloudToGround: boolean;
}

interface Bin {
  lng: number;
  lat: number;
  minute: number;
  count: number;
}

/**
 * What the live map shows: storms, rain areas and lightning, fed by the initial pages and then by the
 * stream (both through the same methods), drawn as GeoJSON on demand. Times are epoch milliseconds.
 */
export class WeatherState {
  private readonly storms = new Map<string, Storm>();
  private readonly rain = new Map<string, Rain>();
  private flashes: Flash[] = [];
  private readonly bins = new Map<string, Bin>();
  strikesSeen = 0;
  /** Bumped on every change, so the map redraws a source only when something changed. */
  version = { storms: 0, rain: 0, lightning: 0 };

  thunderstormFromPage(record: ThunderstormRecord, nowMs: number): void {
    const cell = record.cell;
    const speed = cell?.speed ?? record.meta?.speed ?? 0;
    const direction = cell?.direction ?? 0;
    this.putStorm({
      eventId: record.eventId,
      severity: record.severity ?? 'UNKNOWN',
      updatedMs: record.eventEndUtcEpoch ?? nowMs,
      cell: cell?.polygon,
      threat: record.threatPolygon,
      centroid: cell?.centroid,
      speedKmh: speed,
      directionDeg: direction,
      path: cell?.centroid && speed > 0 ? linearPath(cell.centroid, speed, direction) : [],
      horizon: undefined,
    });
  }

  thunderstormFromStream(event: ThunderstormEventData): void {
    const path = event.predictedPath?.points.map((p): Position => [p.centroid.lng, p.centroid.lat]);
    this.putStorm({
      eventId: event.eventId,
      severity: event.severity,
      updatedMs: Math.max(event.eventEndUtcEpoch, event.insertedAtEpoch),
      cell: event.cell.polygon,
      threat: event.threatPolygon,
      centroid: event.cell.centroid,
      speedKmh: event.motion?.speedKmh ?? event.cell.speed,
      directionDeg: event.motion?.towardDeg ?? event.cell.direction,
      path: path ?? (event.cell.speed > 0 ? linearPath(event.cell.centroid, event.cell.speed, event.cell.direction) : []),
      horizon: event.predictedPath?.polygonAtHorizon,
    });
  }

  private putStorm(storm: Storm): void {
    const held = this.storms.get(storm.eventId);
    if (held && held.updatedMs > storm.updatedMs) return;
    this.storms.set(storm.eventId, storm);
    this.version.storms += 1;
  }

  /** A rain area of the initial load: its record and the polygons read from the geometry operation. */
  rainFromPage(record: PrecipitationRecord, polygons: Position[][][]): void {
    this.putRain({ eventId: record.eventId, intensity: record.intensity, radarMs: record.radarTimeStamp, forecast: record.forecast, polygons });
  }

  rainFromStream(event: PrecipitationEventData): void {
    this.putRain({
      eventId: event.eventId,
      intensity: event.intensity,
      radarMs: event.radarTimeStamp,
      forecast: event.forecast,
      polygons: event.geometry.polygons.map((p) => [
        p.exterior.map((q): Position => [q.lng, q.lat]),
        ...p.holes.map((h) => h.map((q): Position => [q.lng, q.lat])),
      ]),
    });
  }

  private putRain(rain: Rain): void {
    // Nowcasts are the future: the map shows the observed rain.
    if (rain.forecast || rain.polygons.length === 0) return;
    this.rain.set(rain.eventId, rain);
    this.version.rain += 1;
  }

  strike(event: LightningEventData): void {
    this.strikesSeen += 1;
    this.flashes.push({ lng: event.longitude, lat: event.latitude, ms: event.timeEpochMillis, cloudToGround: event.dischargeType === 'FLASH_CLOUD_TO_GROUND' });
    const minute = Math.floor(event.timeEpochMillis / 60_000);
    const x = Math.floor(event.longitude / CELL_DEG);
    const y = Math.floor(event.latitude / CELL_DEG);
    const key = `${x}:${y}:${minute}`;
    const bin = this.bins.get(key);
    if (bin) bin.count += 1;
    else this.bins.set(key, { lng: (x + 0.5) * CELL_DEG, lat: (y + 0.5) * CELL_DEG, minute, count: 1 });
    this.version.lightning += 1;
  }

  /** Forgets what aged out; called about once a second by the map. */
  prune(nowMs: number): void {
    for (const [id, storm] of this.storms) {
      if (storm.updatedMs < nowMs - STORM_STALE_MS) {
        this.storms.delete(id);
        this.version.storms += 1;
      }
    }
    let newestScan = 0;
    for (const rain of this.rain.values()) newestScan = Math.max(newestScan, rain.radarMs);
    for (const [id, rain] of this.rain) {
      if (rain.radarMs < newestScan - RAIN_SCAN_SPREAD_MS || rain.radarMs < nowMs - RAIN_STALE_MS) {
        this.rain.delete(id);
        this.version.rain += 1;
      }
    }
    const oldestMinute = Math.floor((nowMs - LIGHTNING_WINDOW_MS) / 60_000);
    for (const [key, bin] of this.bins) if (bin.minute < oldestMinute) this.bins.delete(key);
    this.flashes = this.flashes.filter((f) => f.ms >= nowMs - FLASH_MS);
    if (this.flashes.length > MAX_FLASHES) this.flashes = this.flashes.slice(-MAX_FLASHES);
    this.version.lightning += 1;
  }

  get stormCount(): number {
    return this.storms.size;
  }

  get rainCount(): number {
    return this.rain.size;
  }

  stormCells(): FeatureCollection {
    const features: Feature[] = [];
    for (const s of this.storms.values()) {
      if (s.threat)
        features.push({ type: 'Feature', geometry: ringGeometry(s.threat), properties: { part: 'threat', severity: s.severity, eventId: s.eventId } });
      if (s.horizon)
        features.push({ type: 'Feature', geometry: ringGeometry(s.horizon), properties: { part: 'horizon', severity: s.severity, eventId: s.eventId } });
      if (s.cell) features.push({ type: 'Feature', geometry: ringGeometry(s.cell), properties: { part: 'cell', severity: s.severity, eventId: s.eventId } });
    }
    return collection(features);
  }

  stormPaths(): FeatureCollection {
    const features: Feature[] = [];
    for (const s of this.storms.values()) {
      if (s.path.length >= 2) {
        features.push({
          type: 'Feature',
          geometry: { type: 'LineString', coordinates: s.path },
          properties: { part: 'path', eventId: s.eventId, speed: Math.round(s.speedKmh) },
        });
        const end = s.path[s.path.length - 1]!;
        features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: end }, properties: { part: 'head', eventId: s.eventId } });
      }
      if (s.centroid)
        features.push({
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [s.centroid.lng, s.centroid.lat] },
          properties: { part: 'centroid', eventId: s.eventId },
        });
    }
    return collection(features);
  }

  rainAreas(): FeatureCollection {
    return collection(
      [...this.rain.values()].map((r) => ({
        type: 'Feature' as const,
        geometry: { type: 'MultiPolygon' as const, coordinates: r.polygons },
        properties: { intensity: r.intensity, eventId: r.eventId },
      })),
    );
  }

  /** Flashes (age in seconds) and the older strikes per cell and minute (age in minutes, count). */
  lightning(nowMs: number): FeatureCollection {
    const nowMinute = Math.floor(nowMs / 60_000);
    const features: Feature[] = [];
    for (const bin of this.bins.values()) {
      features.push({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [bin.lng, bin.lat] },
        properties: { kind: 'bin', ageMin: nowMinute - bin.minute, count: bin.count },
      });
    }
    for (const f of this.flashes) {
      features.push({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [f.lng, f.lat] },
        properties: { kind: 'flash', ageS: Math.max(0, (nowMs - f.ms) / 1000), cg: f.cloudToGround },
      });
    }
    return collection(features);
  }
}
