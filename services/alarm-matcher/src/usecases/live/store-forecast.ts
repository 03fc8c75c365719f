import { cellsOfChunk, type ForecastChunk } from '../../forecast/forecast-chunk.js';
import type { Clock } from '../../ports/clock.js';
import type { ForecastStore } from '../../ports/forecast-store.js';

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
