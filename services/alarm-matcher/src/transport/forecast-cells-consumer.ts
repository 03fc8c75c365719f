import { Outcomes, TopicNames, type ChannelHandlers } from '@stormhook/kafka';
import type { LatestForecastCells } from '../forecast/latest-cells.js';
import { cellsOfChunk } from '../forecast/forecast-chunk.js';
import { toForecastChunk } from '../decoding/weather-decoding.js';

/**
 * Applies weather.forecast.v1 to this instance's forecast cells in memory (every instance reads
 * every chunk). A record it cannot use is skipped, not dead-lettered: the shared weather consumer
 * dead-letters it once already (its consumer skips records that fail the channel checks likewise).
 */
export function forecastCellsHandlers(cells: LatestForecastCells): ChannelHandlers<typeof TopicNames.WeatherForecast> {
  return {
    [TopicNames.WeatherForecast]: async ({ message }) => {
      const chunk = toForecastChunk(message);
      if (chunk.ok) cells.apply(cellsOfChunk(chunk.value));
      return Outcomes.ok();
    },
  };
}
