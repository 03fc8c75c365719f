import { bboxContains } from '@stormhook/geometry';
import { enumName, weatherV1, type feedV1 } from '@stormhook/proto';
import { areaKey } from './area-key.js';
import { describeBox } from './geo/validate-geometry.js';
import type { NormalisedRecord } from './normalised.js';
import { checkRange, checkSourceId, Problems, rejected, type Validated } from './problems.js';
import type { IngestRules } from './rules.js';
import { checkOptionalTime, checkTime } from './time-checks.js';

type LightningRecord = Extract<NormalisedRecord, { feed: 'lightning' }>;

/** Peak currents beyond this (in amperes) are measurement errors: the strongest recorded strokes are a few hundred kA. */
export const MAX_PEAK_CURRENT_AMPERES = 500_000;
export const MAX_IN_CLOUD_HEIGHT_M = 20_000;
export const MAX_MULTIPLICITY = 50;

/** Validates a located discharge and turns it into the body of a LightningEvent. */
export function validateLightning(msg: feedV1.LightningStrike, now: number, rules: IngestRules): Validated<LightningRecord> {
  const problems = new Problems();
  checkSourceId(problems, 'source_event_id', msg.sourceEventId);
  checkRange(problems, 'version', msg.version, 0, Number.MAX_SAFE_INTEGER);
  checkOptionalTime(problems, 'updated_epoch_ms', msg.updatedEpochMs);
  checkTime(problems, 'time_epoch_ms', msg.timeEpochMs, now, rules);
  // The feed and the event share the vocabulary's enum: a known value passes as it is.
  const type = enumName(weatherV1.LightningType, msg.type) === undefined ? undefined : msg.type;
  if (!type) {
    problems.add('type', msg.type === 'LIGHTNING_TYPE_UNSPECIFIED' ? 'is required' : `unknown value ${String(msg.type)}`);
  }
  const latOk = checkRange(problems, 'latitude', msg.latitude, -90, 90, 'degrees');
  const lngOk = checkRange(problems, 'longitude', msg.longitude, -180, 180, 'degrees');
  const location = { lng: msg.longitude, lat: msg.latitude };
  if (latOk && lngOk && !bboxContains(rules.coverage, location.lng, location.lat)) {
    problems.add('latitude/longitude', `(${msg.latitude}, ${msg.longitude}) lies outside the covered area ${describeBox(rules.coverage)}`);
  }
  checkRange(problems, 'peak_current_amperes', msg.peakCurrentAmperes, -MAX_PEAK_CURRENT_AMPERES, MAX_PEAK_CURRENT_AMPERES, 'A');
  if (msg.inCloudHeightM !== undefined) {
    checkRange(problems, 'in_cloud_height_m', msg.inCloudHeightM, 0, MAX_IN_CLOUD_HEIGHT_M, 'm');
  }
  checkRange(problems, 'multiplicity', msg.multiplicity, 0, MAX_MULTIPLICITY, 'strokes');
  if (!problems.empty || !type) return rejected(problems);

  return {
    ok: true,
    value: {
      feed: 'lightning',
      sourceId: msg.sourceEventId,
      version: msg.version,
      updatedEpochMs: msg.updatedEpochMs,
      eventTimeEpochMs: msg.timeEpochMs,
      events: [
        {
          eventId: `ltg_${msg.sourceEventId}`,
          sourceEventId: msg.sourceEventId,
          areaKey: areaKey(location),
          timeEpochMs: msg.timeEpochMs,
          type,
          location,
          peakCurrentAmperes: msg.peakCurrentAmperes,
          // A height on a cloud-to-ground flash is meaningless (the contract says null); drop it rather than reject.
          ...(msg.inCloudHeightM !== undefined && type === 'LIGHTNING_TYPE_FLASH_IN_CLOUD' ? { inCloudHeightM: msg.inCloudHeightM } : {}),
          multiplicity: Math.max(1, msg.multiplicity),
        },
      ],
    },
  };
}
