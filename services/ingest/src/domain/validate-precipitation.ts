import { bboxOfRings } from '@stormhook/geometry';
import { enumName, enumValue, weatherV1, type feedV1 } from '@stormhook/proto';
import { areaKey } from './area-key.js';
import { normaliseMultiPolygon } from './geo/validate-geometry.js';
import { positionsOf } from './geo/rings.js';
import { areaKm2, centroidOf } from './geo/measure.js';
import { intensityForRainRate, MAX_RAIN_RATE_MM_PER_H, type Intensity } from './intensity.js';
import type { NormalisedRecord } from './normalised.js';
import { toBoundingBox } from './normalised.js';
import { checkDirection, checkRange, checkSourceId, normaliseDirection, Problems, rejected, type Validated } from './problems.js';
import type { IngestRules } from './rules.js';
import { MAX_STORM_SPEED_KMH } from './speed.js';
import { checkOptionalTime, checkTime } from './time-checks.js';

type PrecipitationRecord = Extract<NormalisedRecord, { feed: 'precipitation' }>;

function intensityOf(problems: Problems, msg: feedV1.PrecipitationObservation): { intensity: Intensity; rate?: number } | undefined {
  if (msg.rainRateMmPerH !== undefined) {
    const rate = msg.rainRateMmPerH;
    if (!Number.isFinite(rate) || rate <= 0 || rate > MAX_RAIN_RATE_MM_PER_H) {
      problems.add('rain_rate_mm_per_h', `${rate} mm/h is outside the accepted range (above 0, at most ${MAX_RAIN_RATE_MM_PER_H} mm/h)`);
      return undefined;
    }
    return { intensity: intensityForRainRate(rate), rate };
  }
  const name = msg.intensity === undefined ? undefined : enumName(weatherV1.PrecipitationIntensity, msg.intensity);
  if (name === undefined) {
    problems.add(
      'intensity',
      msg.intensity === undefined || msg.intensity === 'PRECIPITATION_INTENSITY_UNSPECIFIED'
        ? 'is required: set intensity or rain_rate_mm_per_h'
        : `unknown value ${String(msg.intensity)}`,
    );
    return undefined;
  }
  return { intensity: name };
}

/**
 * Validates a radar precipitation record and turns it into the body of a PrecipitationEvent:
 * intensity classified, geometry oriented, bbox, centroid, area and area key computed.
 */
export function validatePrecipitation(msg: feedV1.PrecipitationObservation, now: number, rules: IngestRules): Validated<PrecipitationRecord> {
  const problems = new Problems();
  checkSourceId(problems, 'source_event_id', msg.sourceEventId);
  checkRange(problems, 'version', msg.version, 0, Number.MAX_SAFE_INTEGER);
  checkOptionalTime(problems, 'updated_epoch_ms', msg.updatedEpochMs);
  checkTime(problems, 'radar_timestamp_epoch_ms', msg.radarTimestampEpochMs, now, rules, msg.forecast ? rules.maxNowcastLeadMs : rules.maxFutureSkewMs);
  const strength = intensityOf(problems, msg);
  if (msg.motion) {
    checkRange(problems, 'motion.speed_kmh', msg.motion.speedKmh, 0, MAX_STORM_SPEED_KMH, 'km/h');
    checkDirection(problems, 'motion.direction_deg', msg.motion.directionDeg);
  }
  // Geometry last and only when everything else is fine: it is the expensive part.
  if (!problems.empty || !strength) return rejected(problems);
  const shape = normaliseMultiPolygon(problems, 'geometry', msg.geometry, { used: 0, max: rules.maxVertices }, rules.coverage);
  if (!shape) return rejected(problems);

  const centroid = centroidOf(shape);
  const event: PrecipitationRecord['events'][number] = {
    eventId: `prc_${msg.sourceEventId}`,
    sourceEventId: msg.sourceEventId,
    areaKey: areaKey(centroid),
    radarTimestampEpochMs: msg.radarTimestampEpochMs,
    forecast: msg.forecast,
    intensity: enumValue(weatherV1.PrecipitationIntensity, strength.intensity),
    ...(strength.rate !== undefined ? { rainRateMmPerH: strength.rate } : {}),
    geometry: shape,
    bbox: toBoundingBox(bboxOfRings(shape.polygons.map((p) => positionsOf(p.exterior.points)))),
    centroid,
    areaKm2: Math.round(areaKm2(shape.polygons) * 1000) / 1000,
    motion: msg.motion ? { speedKmh: msg.motion.speedKmh, directionDeg: normaliseDirection(msg.motion.directionDeg) } : null,
  };
  return {
    ok: true,
    value: {
      feed: 'precipitation',
      sourceId: msg.sourceEventId,
      version: msg.version,
      updatedEpochMs: msg.updatedEpochMs,
      eventTimeEpochMs: msg.radarTimestampEpochMs,
      events: [event],
    },
  };
}
