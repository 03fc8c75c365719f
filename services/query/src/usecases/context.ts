import type { weatherV1 } from '@stormhook/proto';
import type { AreaIndex } from '@stormhook/access';
import type { ForecastStore } from '../forecast/forecast-store.js';
import type { EventReadModel } from '../read-models/event-read-model.js';

/** What every query use case reads: the read models, the areas (once loaded) and the clock. */
export interface QueryContext {
  precipitations: EventReadModel<weatherV1.PrecipitationEvent>;
  thunderstorms: EventReadModel<weatherV1.ThunderstormEvent>;
  forecasts: ForecastStore;
  /** Undefined until the geo service answered. */
  areas(): AreaIndex | undefined;
  now(): number;
  forecastSettings: {
    weatherIconUrlBase: string;
    /** A grid cell farther than this from the point does not answer for it, in metres. */
    maxCellDistanceM: number;
  };
}
