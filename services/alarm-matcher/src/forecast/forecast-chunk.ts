import type { Position } from '@stormhook/geometry';
import { dailyValues, type HourlySeries } from './daily.js';
import type { CellForecast } from './forecast-cells.js';

/** One forecast event as decoded (decoding/weather-decoding.ts): some cells of one run, hourly. */
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
