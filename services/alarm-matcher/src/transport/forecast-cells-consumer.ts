import { EventTypes, Outcomes, type ConsumedRecord, type Handler, type Outcome } from '@stormhook/kafka';
import type { LatestForecastCells } from '../forecast/latest-cells.js';
import { cellsOfChunk } from '../usecases/forecast/store-forecast.js';
import { decodeForecast } from './weather-decoding.js';

/**
 * Applies weather.forecast.v1 to this instance's forecast cells in memory (every instance reads
 * every chunk). A record it cannot use is skipped, not dead-lettered: the shared weather consumer
 * dead-letters it once already.
 */
export function forecastCellsHandler(cells: LatestForecastCells): Handler {
  return async (record: ConsumedRecord): Promise<Outcome> => {
    if (record.headers.eventType !== EventTypes.ForecastEvent) return Outcomes.ok();
    const decoded = decodeForecast(record.value);
    if (decoded.ok) cells.apply(cellsOfChunk(decoded.value));
    return Outcomes.ok();
  };
}
