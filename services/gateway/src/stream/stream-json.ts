import { direct } from '@stormhook/geometry';
import type { commonV1, weatherV1 } from '@stormhook/proto';
import { multiForm } from '../json/area-shapes.js';
import { intensityName, thunderstormJson } from '../json/weather-json.js';
import type {
  LightningEventData,
  PrecipitationEventData,
  PredictedPath,
  StreamGeoPoint,
  StreamMotion,
  StreamPolygon,
  ThunderstormEventData,
} from '@stormhook/webhooks/stream-events';

/** The predicted path's reach and spacing: the hour the console draws, a point every 10 minutes. */
export const PATH_HORIZON_MIN = 60;
export const PATH_STEP_MIN = 10;

/**
 * Fastest motion believed, as the matcher believes it (resolve-motion.ts): a faster vector is a unit
 * mistake or a tracker glitch, and a path drawn from it would cross the country in an hour.
 */
const MAX_PLAUSIBLE_SPEED_KMH = 150;

const RAD = Math.PI / 180;

/** The feed's vector as the stream shows it; null when there is none (speed 0) or it is implausible. */
export function motionJson(speedKmh: number | undefined, directionDeg: number | undefined): StreamMotion | null {
  if (speedKmh === undefined || directionDeg === undefined) return null;
  if (!Number.isFinite(speedKmh) || !Number.isFinite(directionDeg) || speedKmh <= 0 || speedKmh > MAX_PLAUSIBLE_SPEED_KMH) return null;
  const toward = ((directionDeg % 360) + 360) % 360;
  return { speedKmh, towardDeg: toward, fromDeg: (toward + 180) % 360, source: 'FEED' };
}

/** A polygon shifted rigidly by (dLng, dLat) degrees: over an hour's path the flat shift errs by metres, far inside the motion's own error. */
function shifted(polygon: StreamPolygon, dLng: number, dLat: number): StreamPolygon {
  const move = (p: StreamGeoPoint): StreamGeoPoint => ({ lng: p.lng + dLng, lat: p.lat + dLat });
  return { exterior: polygon.exterior.map(move), holes: polygon.holes.map((h) => h.map(move)) };
}

/** The centroid carried along the motion (geodesic), every PATH_STEP_MIN up to PATH_HORIZON_MIN, and the outline at the horizon. */
export function predictedPath(scanMs: number, centroid: StreamGeoPoint, polygon: StreamPolygon, motion: StreamMotion): PredictedPath {
  const points: PredictedPath['points'] = [];
  for (let minutes = 0; minutes <= PATH_HORIZON_MIN; minutes += PATH_STEP_MIN) {
    const [lng, lat] =
      minutes === 0 ? [centroid.lng, centroid.lat] : direct(centroid.lng, centroid.lat, motion.towardDeg * RAD, (motion.speedKmh * 1000 * minutes) / 60);
    points.push({ minutesAhead: minutes, epochMillis: scanMs + minutes * 60_000, centroid: { lng, lat } });
  }
  const end = points[points.length - 1]!.centroid;
  return {
    method: 'LINEAR_EXTRAPOLATION',
    issuedEpochMillis: scanMs,
    horizonMinutes: PATH_HORIZON_MIN,
    stepMinutes: PATH_STEP_MIN,
    points,
    polygonAtHorizon: shifted(polygon, end.lng - centroid.lng, end.lat - centroid.lat),
  };
}

const revisionOf = (e: { revision?: weatherV1.EventRevision | null }): number => e.revision?.revision ?? 0;

/** The lightning.strike callback's fields about the strike (matcher payloads/lightning-payload.ts). */
export function lightningEventJson(e: weatherV1.LightningEvent): LightningEventData {
  return {
    eventId: e.eventId,
    strikeId: e.sourceEventId,
    timeEpochMillis: e.timeEpochMs,
    dischargeType: e.type === 'LIGHTNING_TYPE_FLASH_IN_CLOUD' ? 'FLASH_IN_CLOUD' : 'FLASH_CLOUD_TO_GROUND',
    latitude: e.location?.lat ?? 0,
    longitude: e.location?.lng ?? 0,
    peakCurrent: e.peakCurrentAmperes,
    inCloudHeight: e.inCloudHeightM ?? null,
    multiplicity: { strokes: e.multiplicity },
    revision: revisionOf(e),
  };
}

/**
 * An item of /v1/thunderstorms/page (the same mapping), with its revision, motion and path. The path
 * starts when the cell was observed, as the matcher dates a revision (decoding/weather-decoding.ts):
 * the publisher's change time, else ingest's, else the tracker's insertion.
 */
export function thunderstormEventJson(e: weatherV1.ThunderstormEvent): ThunderstormEventData {
  const item = thunderstormJson(e);
  const motion = motionJson(e.cell?.speedKmh, e.cell?.directionDeg);
  const outline = item.cell.polygon.exterior.length > 0 ? item.cell.polygon : item.threatPolygon;
  const scanMs = e.revision?.sourceUpdatedEpochMs || e.revision?.ingestedEpochMs || e.insertedEpochMs;
  return {
    ...item,
    revision: revisionOf(e),
    motion,
    predictedPath: motion && e.cell?.centroid ? predictedPath(scanMs, item.cell.centroid, outline, motion) : null,
  };
}

const point = (p: commonV1.GeoPoint | null | undefined): StreamGeoPoint => ({ lng: p?.lng ?? 0, lat: p?.lat ?? 0 });

/** An item of /v1/precipitations/page with its geometry (multi form), rain rate, centroid, area and motion. */
export function precipitationEventJson(e: weatherV1.PrecipitationEvent): PrecipitationEventData {
  return {
    eventId: e.eventId,
    radarTimeStamp: e.radarTimestampEpochMs,
    forecast: e.forecast,
    intensity: intensityName(e.intensity),
    rainRate: e.rainRateMmPerH ?? null,
    geometry: multiForm(e.geometry),
    centroid: point(e.centroid),
    areaKm2: e.areaKm2,
    motion: motionJson(e.motion?.speedKmh, e.motion?.directionDeg),
    revision: revisionOf(e),
  };
}
