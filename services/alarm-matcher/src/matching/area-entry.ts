import type { RealtimeRegistration } from '../domain/registration.js';
import type { PreparedShape } from '../geometry/prepared-shape.js';
import type { StormHits } from './rules.js';
import type { Strike } from './weather-events.js';

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

/**
 * The lightning filters of one area's registrations as parallel typed arrays: the hot path then
 * reads numbers of one shape instead of filter objects of many shapes (which V8 cannot inline).
 * type: 0 any, 1 cloud-to-ground, 2 in-cloud; minAbsPeak: 0 when not set; maxIcHeight: Infinity when not set.
 */
interface CompiledLightning {
  type: Uint8Array;
  minAbsPeak: Float64Array;
  maxIcHeight: Float64Array;
  /** One immutable match per lightning registration, made once so matching allocates nothing per match. */
  matches: Match[];
}

const LIGHTNING_TYPE_CODE = { FLASH_CLOUD_TO_GROUND: 1, FLASH_IN_CLOUD: 2 } as const;

/** The registrations of one watched area, grouped by the weather they want. */
export class AreaEntry implements WatchedArea {
  readonly registrations = new Map<string, RealtimeRegistration>();
  lightning: RealtimeRegistration[] = [];
  thunderstorm: RealtimeRegistration[] = [];
  precipitation: RealtimeRegistration[] = [];
  private compiled: CompiledLightning = { type: new Uint8Array(0), minAbsPeak: new Float64Array(0), maxIcHeight: new Float64Array(0), matches: [] };
  /** Last match run that looked at this area, so a shape spanning many cells is tested once. */
  stamp = 0;

  constructor(
    readonly key: string,
    readonly shape: PreparedShape,
    /** Grid cells the area is filed under, for removal. */
    readonly cells: readonly number[],
  ) {}

  /** Rebuilds the per-kind lists after a registration came or went. */
  refresh(): void {
    const all = [...this.registrations.values()];
    this.lightning = all.filter((r) => r.filter.lightning !== undefined);
    this.thunderstorm = all.filter((r) => r.filter.thunderstorm !== undefined);
    this.precipitation = all.filter((r) => r.filter.precipitation !== undefined);
    const n = this.lightning.length;
    const compiled: CompiledLightning = { type: new Uint8Array(n), minAbsPeak: new Float64Array(n), maxIcHeight: new Float64Array(n), matches: [] };
    this.lightning.forEach((registration, i) => {
      const filter = registration.filter.lightning!;
      compiled.type[i] = filter.type ? LIGHTNING_TYPE_CODE[filter.type] : 0;
      compiled.minAbsPeak[i] = filter.peakCurrentA === undefined ? 0 : Math.abs(filter.peakCurrentA);
      compiled.maxIcHeight[i] = filter.inCloudHeightM ?? Infinity;
      compiled.matches.push(Object.freeze({ registration, area: this }));
    });
    this.compiled = compiled;
  }

  /**
   * Adds the matches of the registrations whose lightning filter the strike passes: the rule of
   * lightningPasses (rules.ts) over the compiled filters; a unit test keeps the two in agreement.
   */
  collectLightning(strike: Strike, into: Match[]): void {
    const { type, minAbsPeak, maxIcHeight, matches } = this.compiled;
    const strikeType = LIGHTNING_TYPE_CODE[strike.type];
    const absPeak = Math.abs(strike.peakCurrentA);
    // Only a known in-cloud height is limited by the filter.
    const icHeight = strike.type === 'FLASH_IN_CLOUD' && strike.inCloudHeightM !== undefined ? strike.inCloudHeightM : -Infinity;
    for (let i = 0; i < matches.length; i++) {
      const wanted = type[i]!;
      if (wanted !== 0 && wanted !== strikeType) continue;
      if (absPeak < minAbsPeak[i]!) continue;
      if (icHeight > maxIcHeight[i]!) continue;
      into.push(matches[i]!);
    }
  }
}
