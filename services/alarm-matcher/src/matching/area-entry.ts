import type { RealtimeRegistration } from '../domain/registration.js';
import type { PreparedShape } from '../geometry/prepared-shape.js';
import type { StormHits } from './rules.js';
import type { Strike } from '../domain/weather-events.js';

/** An area watched by one or more registrations (all geometry alarms of a district share one). */
export interface WatchedArea {
  readonly key: string;
  readonly shape: PreparedShape;
}

export interface Match {
  registration: RealtimeRegistration;
  area: WatchedArea;
}

export interface StormMatch extends Match {
  hits: StormHits;
}

/** Codes of a lightning filter's type: 0 any, 1 cloud-to-ground, 2 in-cloud. */
export const LIGHTNING_TYPE_CODE = { FLASH_CLOUD_TO_GROUND: 1, FLASH_IN_CLOUD: 2 } as const;
/** Doubles per compiled lightning filter: type code, minimum |peak current| (0: none), maximum in-cloud height (Infinity: none). */
export const FILTER_STRIDE = 3;

/** The strike's values the compiled filters compare against. */
export interface StrikeKey {
  type: number;
  absPeak: number;
  /** The in-cloud height when known, else -Infinity (then no height limit applies). */
  icHeight: number;
}

export function strikeKey(strike: Strike): StrikeKey {
  return {
    type: LIGHTNING_TYPE_CODE[strike.type],
    absPeak: Math.abs(strike.peakCurrentA),
    icHeight: strike.type === 'FLASH_IN_CLOUD' && strike.inCloudHeightM !== undefined ? strike.inCloudHeightM : -Infinity,
  };
}

/**
 * Whether the compiled filter at `offset` of `filters` passes: the rule of lightningPasses
 * (rules.ts) over numbers; a unit test keeps the two in agreement.
 */
export function compiledPasses(filters: Float64Array, offset: number, key: StrikeKey): boolean {
  const wanted = filters[offset]!;
  return (wanted === 0 || wanted === key.type) && key.absPeak >= filters[offset + 1]! && key.icHeight <= filters[offset + 2]!;
}

/** The registrations of one watched area, grouped by the weather they want. */
export class AreaEntry implements WatchedArea {
  readonly registrations = new Map<string, RealtimeRegistration>();
  lightning: RealtimeRegistration[] = [];
  thunderstorm: RealtimeRegistration[] = [];
  precipitation: RealtimeRegistration[] = [];
  /** Of those, the ones with a warning stage before arrival (their filter's `approach`). */
  thunderstormApproach: RealtimeRegistration[] = [];
  precipitationApproach: RealtimeRegistration[] = [];
  /**
   * The lightning filters compiled into one Float64Array ({@link FILTER_STRIDE} doubles each): the hot
   * path reads numbers of one shape from contiguous memory instead of filter objects of many shapes.
   */
  lightningFilters = new Float64Array(0);
  /** One immutable match per lightning registration, made once so matching allocates nothing per match. */
  lightningMatches: Match[] = [];
  /** Last match run that looked at this area, so a shape spanning many cells is tested once. */
  stamp = 0;

  constructor(
    readonly key: string,
    readonly shape: PreparedShape,
    /** Grid cells the area is filed under, for removal. */
    readonly cells: readonly number[],
    /** Of those, the cells it covers only in part. */
    readonly partialCells: readonly number[],
  ) {}

  /** Rebuilds the per-kind lists after a registration came or went. */
  refresh(): void {
    const all = [...this.registrations.values()];
    this.lightning = all.filter((r) => r.filter.lightning !== undefined);
    this.thunderstorm = all.filter((r) => r.filter.thunderstorm !== undefined);
    this.precipitation = all.filter((r) => r.filter.precipitation !== undefined);
    this.thunderstormApproach = this.thunderstorm.filter((r) => r.filter.thunderstorm!.approach !== undefined);
    this.precipitationApproach = this.precipitation.filter((r) => r.filter.precipitation!.approach !== undefined);
    const filters = new Float64Array(this.lightning.length * FILTER_STRIDE);
    this.lightning.forEach((registration, i) => {
      const filter = registration.filter.lightning!;
      filters[i * FILTER_STRIDE] = filter.type ? LIGHTNING_TYPE_CODE[filter.type] : 0;
      filters[i * FILTER_STRIDE + 1] = filter.peakCurrentA === undefined ? 0 : Math.abs(filter.peakCurrentA);
      filters[i * FILTER_STRIDE + 2] = filter.inCloudHeightM ?? Infinity;
    });
    this.lightningFilters = filters;
    this.lightningMatches = this.lightning.map((registration) => Object.freeze({ registration, area: this }));
  }

  /** Adds the matches of the registrations whose lightning filter the strike passes. */
  collectLightning(key: StrikeKey, into: Match[]): void {
    const filters = this.lightningFilters;
    const matches = this.lightningMatches;
    for (let i = 0; i < matches.length; i++) {
      if (compiledPasses(filters, i * FILTER_STRIDE, key)) into.push(matches[i]!);
    }
  }
}
