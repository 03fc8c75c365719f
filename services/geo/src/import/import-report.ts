import type { AreaLevel, CountryCode } from '../domain/area.js';

export interface RejectedFeature {
  readonly file: string;
  /** Position of the feature in the file's `features` array; -1 when the whole file is unusable. */
  readonly index: number;
  readonly id?: number;
  readonly reason: string;
}

export interface FileReport {
  readonly file: string;
  readonly level: AreaLevel;
  readonly country: CountryCode;
  /** `missing`: the source has no such file; `invalid`: not a GeoJSON FeatureCollection. */
  readonly status: 'read' | 'missing' | 'invalid';
  readonly features: number;
  readonly accepted: number;
  readonly rejected: number;
}

/** What an import did. `accepted` = unchanged + inserted + updated. */
export interface ImportReport {
  readonly source: string;
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly files: readonly FileReport[];
  readonly accepted: number;
  readonly rejected: readonly RejectedFeature[];
  readonly unchanged: number;
  readonly inserted: number;
  readonly updated: number;
}
