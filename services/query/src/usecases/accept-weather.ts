import type { weatherV1 } from '@stormhook/proto';
import type { AreaIndex } from '@stormhook/access';
import { precipitationEntry, thunderstormEntry } from '../domain/event-entries.js';
import type { ForecastStore } from '../forecast/forecast-store.js';
import type { ForecastRepository } from '../persistence/forecast-repository.js';
import type { AcceptResult, EventReadModel } from '../read-models/event-read-model.js';

/** The ports the consumer feeds; every step is idempotent, so a re-delivered record changes nothing. */
export interface WeatherSinks {
  precipitations: EventReadModel<weatherV1.PrecipitationEvent>;
  thunderstorms: EventReadModel<weatherV1.ThunderstormEvent>;
  forecasts: ForecastStore;
  forecastRepository: ForecastRepository;
}

/** Whether this revision (or a later one) is held; an event without a revision is left for validation to refuse. */
function seen(model: { has(eventId: string, revision: number): boolean }, event: { eventId: string; revision?: weatherV1.EventRevision | null }): boolean {
  const revision = event.revision?.revision ?? 0;
  return revision >= 1 && model.has(event.eventId, revision);
}

/** Tagging an event with areas costs polygon tests, so a re-delivery is recognised before that. */
export async function acceptPrecipitation(
  sinks: WeatherSinks,
  areas: AreaIndex,
  event: weatherV1.PrecipitationEvent,
  bytes: Uint8Array,
): Promise<AcceptResult> {
  if (seen(sinks.precipitations, event)) return 'duplicate';
  return sinks.precipitations.accept(precipitationEntry(event, areas), bytes, event);
}

export async function acceptThunderstorm(sinks: WeatherSinks, areas: AreaIndex, event: weatherV1.ThunderstormEvent, bytes: Uint8Array): Promise<AcceptResult> {
  if (seen(sinks.thunderstorms, event)) return 'duplicate';
  return sinks.thunderstorms.accept(thunderstormEntry(event, areas), bytes, event);
}

/** A chunk of a forecast run; chunks of runs already superseded are not stored. */
export async function acceptForecast(sinks: WeatherSinks, event: weatherV1.ForecastEvent, bytes: Uint8Array): Promise<AcceptResult> {
  if (!sinks.forecasts.wants(event)) return 'duplicate';
  await sinks.forecastRepository.put(
    { eventId: event.eventId, revision: event.revision?.revision ?? 0, runId: event.runId, model: event.model, issue: event.issueEpochMs },
    bytes,
  );
  sinks.forecasts.apply(event);
  return 'stored';
}
