import type { Position } from '@stormhook/geometry';
import { dailyValues, type HourlySeries } from '../../forecast/daily.js';
import type { CellForecast } from '../../forecast/forecast-cells.js';
import type { Clock } from '../../ports/clock.js';
import type { ForecastStore } from '../../ports/forecast-store.js';

/** One forecast event as the consumer decoded it: some cells of one run, hourly. */
export interface ForecastChunk {
  runId: string;
  issueMs: number;
  firstHourMs: number;
  cells: Array<{ cellId: string; location: Position; series: HourlySeries[] }>;
}

/** The cells of one chunk as daily values (what forecast alarms compare with their thresholds). */
export function cellsOfChunk(chunk: ForecastChunk): CellForecast[] {
  return chunk.cells.map((cell) => ({
    cellId: cell.cellId,
    location: cell.location,
    runId: chunk.runId,
    issueMs: chunk.issueMs,
    days: dailyValues(chunk.firstHourMs, cell.series),
  }));
}

/**
 * Keeps the latest forecast of every grid cell as daily values (what forecast alarms compare with
 * their thresholds). Runs arrive in several events per area; each cell is replaced by a later run.
 */
export class StoreForecast {
  constructor(
    private readonly store: ForecastStore,
    private readonly clock: Clock,
  ) {}

  async handle(chunk: ForecastChunk): Promise<number> {
    const cells = cellsOfChunk(chunk);
    await this.store.save(cells, this.clock.now());
    return cells.length;
  }
}
