import type { Position } from '@stormhook/geometry';
import type { CellForecast } from '../forecast/forecast-cells.js';

/** Forecast runs as daily values per grid cell; readers get the latest run of each cell. */
export interface ForecastStore {
  /** Stores the cells of one run (a re-sent chunk replaces its cells). */
  save(cells: readonly CellForecast[], nowMs: number): Promise<void>;
  all(): Promise<CellForecast[]>;
  /** Cells within `radiusDeg` degrees of latitude and longitude around the point. */
  near(point: Position, radiusDeg: number): Promise<CellForecast[]>;
  /** Deletes the cells of runs issued before `issueMs` (superseded runs). */
  purgeIssuedBefore(issueMs: number): Promise<number>;
  newestIssueMs(): Promise<number | undefined>;
}
