import { fail, invalid, ok, type Result } from './errors.js';
import type { ApproachStageDraft, WeatherFilterDraft } from './draft.js';
import type { ApproachStage, LightningFilter, PrecipitationFilter, ThunderstormFilter, WeatherFilter } from './registration.js';
import { INTENSITIES, LIGHTNING_TYPES, SEVERITIES, type Intensity, type LightningType, type Severity } from './weather-enums.js';

/** Upper bounds that catch unit mistakes; real values stay far below them. */
const MAX_IN_CLOUD_HEIGHT_M = 25_000;
const MAX_SPEED_KMH = 500;
/** Storms faster than this are not observed; a higher threshold can never match. */
const FASTEST_STORM_KMH = 150;
/** Detected discharges start around 1-2 kA; a smaller threshold filters nothing. */
const SMALLEST_DISCHARGE_A = 1_000;
/**
 * Bounds of the early-warning extension (approach lead time, lightning ring width) as it is offered;
 * the gateway's schema states the same numbers, so both refuse the same requests.
 */
const MIN_LEAD_MINUTES = 5;
const MAX_LEAD_MINUTES = 60;
const MIN_APPROACH_RADIUS_M = 500;
const MAX_APPROACH_RADIUS_M = 50_000;

export interface Validated<T> {
  value: T;
  warnings: string[];
}

function pickEnum<T extends string>(raw: string, allowed: readonly T[], field: string): Result<T | undefined> {
  if (raw === '') return ok(undefined);
  return (allowed as readonly string[]).includes(raw) ? ok(raw as T) : fail(invalid(field, `must be one of ${allowed.join(', ')}`));
}

function finite(value: number | undefined, field: string, min: number, max: number, unit: string): Result<number | undefined> {
  if (value === undefined) return ok(undefined);
  if (!Number.isFinite(value) || value < min || value > max) return fail(invalid(field, `must be a number from ${min} to ${max} ${unit}`));
  return ok(value);
}

/** An early-warning stage; `field` is its public path (filter.thunderstorm.approach, filter.precipitation.approach). */
function approachStage(draft: ApproachStageDraft | undefined, field: string): Result<ApproachStage | undefined> {
  if (draft === undefined) return ok(undefined);
  const lead = draft.leadMinutes;
  // Over gRPC an approach without lead_minutes arrives as 0: refused like any other out-of-range value.
  if (!Number.isInteger(lead) || lead < MIN_LEAD_MINUTES || lead > MAX_LEAD_MINUTES) {
    return fail(invalid(`${field}.leadMinutes`, `must be an integer from ${MIN_LEAD_MINUTES} to ${MAX_LEAD_MINUTES} minutes`));
  }
  return ok({ leadMinutes: lead });
}

function lightningFilter(draft: NonNullable<WeatherFilterDraft['lightning']>, warnings: string[]): Result<LightningFilter> {
  const type = pickEnum<LightningType>(draft.type, LIGHTNING_TYPES, 'filter.lightning.type');
  if (!type.ok) return type;
  const peak = finite(draft.peakCurrentA, 'filter.lightning.peakCurrent', -1_000_000, 1_000_000, 'amperes');
  if (!peak.ok) return peak;
  const height = finite(draft.inCloudHeightM, 'filter.lightning.inCloudHeight', 0, MAX_IN_CLOUD_HEIGHT_M, 'metres');
  if (!height.ok) return height;
  const ring = finite(draft.approachRadiusM, 'filter.lightning.approachRadius', MIN_APPROACH_RADIUS_M, MAX_APPROACH_RADIUS_M, 'metres');
  if (!ring.ok) return ring;
  if (peak.value !== undefined && peak.value !== 0 && Math.abs(peak.value) < SMALLEST_DISCHARGE_A) {
    warnings.push(
      `filter.lightning.peakCurrent is in amperes and compared by magnitude: ${peak.value} A is below every detected discharge (about 1,000 A and more), so it filters nothing; for kiloamperes multiply by 1000`,
    );
  }
  if (type.value === 'FLASH_CLOUD_TO_GROUND' && height.value !== undefined) {
    warnings.push('filter.lightning.inCloudHeight limits in-cloud discharges only; with type FLASH_CLOUD_TO_GROUND it has no effect');
  }
  return ok({
    ...(type.value ? { type: type.value } : {}),
    ...(peak.value !== undefined ? { peakCurrentA: peak.value } : {}),
    ...(height.value !== undefined ? { inCloudHeightM: height.value } : {}),
    ...(ring.value !== undefined ? { approachRadiusM: ring.value } : {}),
  });
}

function thunderstormFilter(draft: NonNullable<WeatherFilterDraft['thunderstorm']>, warnings: string[]): Result<ThunderstormFilter> {
  const severity = pickEnum<Severity>(draft.severityThreshold, SEVERITIES, 'filter.thunderstorm.severityThreshold');
  if (!severity.ok) return severity;
  const speed = finite(draft.speedThresholdKmh, 'filter.thunderstorm.speedThreshold', 0, MAX_SPEED_KMH, 'km/h');
  if (!speed.ok) return speed;
  const approach = approachStage(draft.approach, 'filter.thunderstorm.approach');
  if (!approach.ok) return approach;
  if (draft.intersectsAffectedPolygon === false && draft.intersectsCellPolygon === false) {
    warnings.push('filter.thunderstorm: intersectsAffectedPolygon and intersectsCellPolygon are both false, so no thunderstorm can match');
  }
  if (speed.value !== undefined && speed.value > FASTEST_STORM_KMH) {
    warnings.push(
      `filter.thunderstorm.speedThreshold ${speed.value} km/h is above any observed storm speed (${FASTEST_STORM_KMH} km/h): no thunderstorm is expected to match`,
    );
  }
  return ok({
    ...(draft.intersectsAffectedPolygon !== undefined ? { intersectsAffectedPolygon: draft.intersectsAffectedPolygon } : {}),
    ...(draft.intersectsCellPolygon !== undefined ? { intersectsCellPolygon: draft.intersectsCellPolygon } : {}),
    ...(severity.value ? { severityThreshold: severity.value } : {}),
    ...(speed.value !== undefined ? { speedThresholdKmh: speed.value } : {}),
    ...(approach.value ? { approach: approach.value } : {}),
  });
}

function precipitationFilter(draft: NonNullable<WeatherFilterDraft['precipitation']>): Result<PrecipitationFilter> {
  const intensities: Intensity[] = [];
  for (const [index, raw] of draft.intensities.entries()) {
    const picked = pickEnum<Intensity>(raw, INTENSITIES, `filter.precipitation.intensities[${index}]`);
    if (!picked.ok) return picked;
    if (picked.value === undefined) return fail(invalid(`filter.precipitation.intensities[${index}]`, `must be one of ${INTENSITIES.join(', ')}`));
    if (!intensities.includes(picked.value)) intensities.push(picked.value);
  }
  // Kept in rank order so stored filters compare equal however they were sent.
  intensities.sort((a, b) => INTENSITIES.indexOf(a) - INTENSITIES.indexOf(b));
  const approach = approachStage(draft.approach, 'filter.precipitation.approach');
  if (!approach.ok) return approach;
  return ok({ intensities, ...(approach.value ? { approach: approach.value } : {}) });
}

/** Validates the filter of a geometry or point alarm; warnings name filters that cannot work as meant. */
export function validateWeatherFilter(draft: WeatherFilterDraft | undefined): Result<Validated<WeatherFilter>> {
  const warnings: string[] = [];
  const filter: WeatherFilter = {};
  if (draft?.lightning) {
    const lightning = lightningFilter(draft.lightning, warnings);
    if (!lightning.ok) return lightning;
    filter.lightning = lightning.value;
  }
  if (draft?.thunderstorm) {
    const thunderstorm = thunderstormFilter(draft.thunderstorm, warnings);
    if (!thunderstorm.ok) return thunderstorm;
    filter.thunderstorm = thunderstorm.value;
  }
  if (draft?.precipitation) {
    const precipitation = precipitationFilter(draft.precipitation);
    if (!precipitation.ok) return precipitation;
    filter.precipitation = precipitation.value;
  }
  if (!filter.lightning && !filter.thunderstorm && !filter.precipitation) {
    warnings.push('filter has no lightning, thunderstorm or precipitation member: this alarm never triggers');
  }
  return ok({ value: filter, warnings });
}
