import { bboxOfRings } from '@stormhook/geometry';
import { enumName, feedV1, weatherV1 } from '@stormhook/proto';
import { areaKey } from './area-key.js';
import { positionsOf } from './geo/rings.js';
import { checkCoverage, checkPoint, normalisePolygon, type VertexBudget } from './geo/validate-geometry.js';
import type { NormalisedRecord } from './normalised.js';
import { toBoundingBox } from './normalised.js';
import { checkDirection, checkRange, checkSourceId, checkText, normaliseDirection, Problems, rejected, type Validated } from './problems.js';
import type { IngestRules } from './rules.js';
import { MAX_STORM_SPEED_KMH, toKmh, type SpeedUnitName } from './speed.js';
import { checkOptionalTime, checkTime } from './time-checks.js';

type ThunderstormRecord = Extract<NormalisedRecord, { feed: 'thunderstorm' }>;

const MAX_DURATION_MS = 48 * 3_600_000;
const MAX_FLASH_RATE = 10_000;
const MAX_CELL_AREA_KM2 = 100_000;

function speedUnitOf(problems: Problems, unit: feedV1.SpeedUnit): SpeedUnitName | undefined {
  if (unit === 'SPEED_UNIT_UNSPECIFIED') return 'KILOMETRES_PER_HOUR';
  const name = enumName(feedV1.SpeedUnit, unit);
  if (name !== undefined) return name;
  problems.add('speed_unit', `unknown value ${String(unit)}`);
  return undefined;
}

function speedKmh(problems: Problems, path: string, value: number, unit: SpeedUnitName): number {
  const kmh = toKmh(value, unit);
  if (!Number.isFinite(value) || kmh < 0 || kmh > MAX_STORM_SPEED_KMH) {
    problems.add(path, `${value} (${kmh} km/h) is outside 0 to ${MAX_STORM_SPEED_KMH} km/h`);
  }
  return kmh;
}

/**
 * Validates a tracked storm cell and turns it into the body of a ThunderstormEvent: speeds in
 * km/h, polygons oriented, flash total filled in, bbox over cell and threat polygon.
 */
export function validateThunderstorm(msg: feedV1.ThunderstormCell, now: number, rules: IngestRules): Validated<ThunderstormRecord> {
  const problems = new Problems();
  checkSourceId(problems, 'source_event_id', msg.sourceEventId);
  checkRange(problems, 'version', msg.version, 0, Number.MAX_SAFE_INTEGER);
  checkOptionalTime(problems, 'updated_epoch_ms', msg.updatedEpochMs);
  checkTime(problems, 'inserted_epoch_ms', msg.insertedEpochMs, now, rules);
  const startOk = checkTime(problems, 'start_epoch_ms', msg.startEpochMs, now, rules);
  if (startOk) {
    if (!Number.isSafeInteger(msg.endEpochMs) || msg.endEpochMs < msg.startEpochMs) {
      problems.add('end_epoch_ms', `${msg.endEpochMs} is before start_epoch_ms ${msg.startEpochMs}`);
    } else if (msg.endEpochMs - msg.startEpochMs > MAX_DURATION_MS) {
      problems.add('end_epoch_ms', `the event lasts more than 48 h (${((msg.endEpochMs - msg.startEpochMs) / 3_600_000).toFixed(1)} h)`);
    }
  }
  // The feed and the event share the vocabulary's enum: a known value passes as it is.
  const severity = enumName(weatherV1.ThunderstormSeverity, msg.severity) === undefined ? undefined : msg.severity;
  if (!severity) {
    problems.add('severity', msg.severity === 'THUNDERSTORM_SEVERITY_UNSPECIFIED' ? 'is required' : `unknown value ${String(msg.severity)}`);
  }
  checkRange(problems, 'threshold', msg.threshold, 0, 1_000, 'flashes/min');
  const unit = speedUnitOf(problems, msg.speedUnit);
  const meta = msg.meta;
  if (meta) {
    checkText(problems, 'meta.country', meta.country, 100);
    checkText(problems, 'meta.state', meta.state, 100);
    checkText(problems, 'meta.city', meta.city, 100);
  }
  const cell = msg.cell;
  if (!cell) problems.add('cell', 'is required');
  if (!problems.empty || !cell || !unit || !severity) return rejected(problems);

  const metaSpeed = speedKmh(problems, 'meta.speed', meta?.speed ?? 0, unit);
  const cellSpeed = speedKmh(problems, 'cell.speed', cell.speed, unit);
  checkRange(problems, 'cell.area_km2', cell.areaKm2, 0, MAX_CELL_AREA_KM2, 'km²');
  checkDirection(problems, 'cell.direction_deg', cell.directionDeg);
  const rates = cell.flashRates ?? { inCloud: 0, cloudToGround: 0, total: 0 };
  checkRange(problems, 'cell.flash_rates.in_cloud', rates.inCloud, 0, MAX_FLASH_RATE, 'flashes/min');
  checkRange(problems, 'cell.flash_rates.cloud_to_ground', rates.cloudToGround, 0, MAX_FLASH_RATE, 'flashes/min');
  checkRange(problems, 'cell.flash_rates.total', rates.total, 0, MAX_FLASH_RATE, 'flashes/min');
  if (!cell.centroid) problems.add('cell.centroid', 'is required');
  else checkPoint(problems, 'cell.centroid', cell.centroid);
  if (!problems.empty || !cell.centroid) return rejected(problems);

  const budget: VertexBudget = { used: 0, max: rules.maxVertices };
  const polygon = normalisePolygon(problems, 'cell.polygon', cell.polygon, budget);
  const threat = normalisePolygon(problems, 'threat_polygon', msg.threatPolygon, budget);
  if (!polygon || !threat || !checkCoverage(problems, 'cell.polygon', [polygon, threat], rules.coverage)) return rejected(problems);

  const centroid = { lng: cell.centroid.lng, lat: cell.centroid.lat };
  const bbox = bboxOfRings([positionsOf(polygon.exterior.points), positionsOf(threat.exterior.points)]);
  return {
    ok: true,
    value: {
      feed: 'thunderstorm',
      sourceId: msg.sourceEventId,
      version: msg.version,
      updatedEpochMs: msg.updatedEpochMs,
      // The end, not the start: a long-lived cell stays relevant as long as it is alive.
      eventTimeEpochMs: msg.endEpochMs,
      events: [
        {
          eventId: `tst_${msg.sourceEventId}`,
          sourceEventId: msg.sourceEventId,
          areaKey: areaKey(centroid),
          insertedEpochMs: msg.insertedEpochMs,
          startEpochMs: msg.startEpochMs,
          endEpochMs: msg.endEpochMs,
          severity,
          threshold: msg.threshold,
          meta: { country: meta?.country ?? '', state: meta?.state ?? '', city: meta?.city ?? '', speedKmh: metaSpeed },
          cell: {
            areaKm2: cell.areaKm2,
            speedKmh: cellSpeed,
            directionDeg: normaliseDirection(cell.directionDeg),
            flashRates: {
              inCloud: rates.inCloud,
              cloudToGround: rates.cloudToGround,
              total: rates.total === 0 ? rates.inCloud + rates.cloudToGround : rates.total,
            },
            centroid,
            polygon,
          },
          threatPolygon: threat,
          bbox: toBoundingBox(bbox),
        },
      ],
    },
  };
}
