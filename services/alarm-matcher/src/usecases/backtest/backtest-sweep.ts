import type { WeatherRecord } from '../../decoding/history-records.js';
import { FORECAST_FILTER_FIELDS, isRealtime, type ForecastRegistration, type RealtimeRegistration, type Registration } from '../../domain/registration.js';
import { allowedNames } from '../../domain/forecast-thresholds.js';
import { INTENSITIES, SEVERITIES, intensityRank } from '../../domain/weather-enums.js';
import { strikeCandidates, type LightningSettings } from '../../matching/lightning-core.js';
import type { RegistrationIndex, WatchedArea } from '../../matching/registration-index.js';

/** Peak currents tried for a lightning filter, amperes (|peak current|; the draft's own value joins them). */
export const PEAK_CURRENT_LADDER_A = [0, 5_000, 10_000, 15_000, 20_000, 30_000, 50_000, 75_000, 100_000] as const;

/** One candidate value of the swept threshold: the draft with that value, everything else unchanged. */
export interface SweepCandidate<R extends Registration = Registration> {
  value: string;
  registration: R;
}

/** The filter's main threshold and the values it is tried at, least to most demanding. */
export type SweepPlan =
  | { kind: 'LIGHTNING'; field: string; current: string; candidates: Array<SweepCandidate<RealtimeRegistration>> }
  | { kind: 'THUNDERSTORM' | 'PRECIPITATION'; field: string; current: string; candidates: Array<SweepCandidate<RealtimeRegistration>> }
  | { kind: 'FORECAST'; field: string; current: string; candidates: Array<SweepCandidate<ForecastRegistration>> };

/**
 * The threshold the sweep varies: for a real-time filter the first member it has of lightning
 * (peak current), thunderstorm (severity) and precipitation (the lowest intensity of `intensities`,
 * tried as "this level and above"); for a forecast filter its first threshold field, at every name
 * of the threshold table. Undefined when the filter has none of them.
 */
export function sweepPlan(registration: Registration): SweepPlan | undefined {
  if (!isRealtime(registration)) {
    const field = FORECAST_FILTER_FIELDS.find((f) => registration.filter[f] !== undefined);
    if (!field) return undefined;
    return {
      kind: 'FORECAST',
      field: `filter.${field}`,
      current: registration.filter[field]!,
      candidates: allowedNames(field).map((name) => ({ value: name, registration: { ...registration, filter: { ...registration.filter, [field]: name } } })),
    };
  }
  const { filter } = registration;
  if (filter.lightning) {
    const current = Math.abs(filter.lightning.peakCurrentA ?? 0);
    const ladder = [...new Set<number>([...PEAK_CURRENT_LADDER_A, current])].sort((a, b) => a - b);
    return {
      kind: 'LIGHTNING',
      field: 'filter.lightning.peakCurrent',
      current: String(current),
      candidates: ladder.map((amperes) => ({
        value: String(amperes),
        registration: { ...registration, filter: { ...filter, lightning: { ...filter.lightning!, peakCurrentA: amperes } } },
      })),
    };
  }
  if (filter.thunderstorm) {
    return {
      kind: 'THUNDERSTORM',
      field: 'filter.thunderstorm.severityThreshold',
      current: filter.thunderstorm.severityThreshold ?? SEVERITIES[0]!,
      candidates: SEVERITIES.map((severity) => ({
        value: severity,
        registration: { ...registration, filter: { ...filter, thunderstorm: { ...filter.thunderstorm!, severityThreshold: severity } } },
      })),
    };
  }
  if (filter.precipitation) {
    const listed = filter.precipitation.intensities;
    const lowest = listed.length === 0 ? INTENSITIES[0]! : listed.reduce((a, b) => (intensityRank(b) < intensityRank(a) ? b : a));
    return {
      kind: 'PRECIPITATION',
      field: 'filter.precipitation.intensities',
      current: lowest,
      candidates: INTENSITIES.map((level) => ({
        value: level,
        registration: {
          ...registration,
          filter: { ...filter, precipitation: { ...filter.precipitation!, intensities: INTENSITIES.filter((i) => intensityRank(i) >= intensityRank(level)) } },
        },
      })),
    };
  }
  return undefined;
}

/** The webhook type prefix of a swept kind's callbacks. */
export const TYPE_PREFIX: Readonly<Record<SweepPlan['kind'], string>> = {
  LIGHTNING: 'lightning.',
  THUNDERSTORM: 'thunderstorm.',
  PRECIPITATION: 'precipitation.',
  FORECAST: 'forecast.',
};

/**
 * The strikes that start an alarm at each candidate (least demanding first), from step one of the
 * lightning core: a strike matching a candidate's area and filter is a START. A strike a candidate
 * does not match cannot match a more demanding one, so each candidate runs over the strikes the one
 * before it matched. Each candidate replaces the draft in the draft's own one-registration index.
 */
export function lightningAlarms(
  candidates: readonly RealtimeRegistration[],
  index: RegistrationIndex,
  area: WatchedArea,
  records: readonly WeatherRecord[],
  settings: LightningSettings,
): number[] {
  let pool = records.filter((r): r is Extract<WeatherRecord, { kind: 'LIGHTNING' }> => r.kind === 'LIGHTNING');
  return candidates.map((registration) => {
    index.upsert(registration, area);
    pool = pool.filter((r) => (strikeCandidates(index, r.strike, r.ingestedMs, settings)?.matches.length ?? 0) > 0);
    return new Set(pool.map((r) => r.strike.eventId)).size;
  });
}
