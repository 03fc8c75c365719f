import { EventTypes, Outcomes, type ConsumedRecord, type Handler, type Outcome, type TopicName } from '@stormhook/kafka';
import { weatherV1 } from '@stormhook/proto';
import type { AreaIndex } from '../areas/area-index.js';
import { UnindexableEvent } from '../domain/event-entries.js';
import type { AcceptResult } from '../read-models/event-read-model.js';
import { acceptForecast, acceptPrecipitation, acceptThunderstorm, type WeatherSinks } from '../usecases/accept-weather.js';

/**
 * The weather topics the query service reads. Lightning is not among them: no query operation
 * lists strokes (alarm-matcher consumes them).
 * WARNING: topic names are a contract; see @stormhook/kafka's catalogue.
 */
export const WEATHER_TOPICS: readonly TopicName[] = ['weather.precipitation.v1', 'weather.thunderstorm.v1', 'weather.forecast.v1'];

export interface WeatherCounters {
  stored: number;
  duplicates: number;
  deadLettered: number;
}

export function newWeatherCounters(): WeatherCounters {
  return { stored: 0, duplicates: 0, deadLettered: 0 };
}

const EXPECTED: Partial<Record<TopicName, string>> = {
  'weather.precipitation.v1': EventTypes.PrecipitationEvent,
  'weather.thunderstorm.v1': EventTypes.ThunderstormEvent,
  'weather.forecast.v1': EventTypes.ForecastEvent,
};

/**
 * Turns weather records into read-model updates. A record that cannot be decoded or indexed is
 * poison and goes to the dead-letter topic; a database failure is transient and retried (the
 * consumer stops, visibly, if it never clears).
 */
export function createWeatherHandler(deps: { sinks: WeatherSinks; areas: () => AreaIndex; counters: WeatherCounters }): Handler {
  const { sinks, counters } = deps;
  return async (record: ConsumedRecord): Promise<Outcome> => {
    const expected = EXPECTED[record.topic];
    if (!expected) return Outcomes.deadLetter(`query does not read topic ${record.topic}`);
    if (record.headers.eventType !== expected) return Outcomes.deadLetter(`event-type ${record.headers.eventType} does not belong on ${record.topic} (expected ${expected})`);
    const bytes = record.value;
    const poison = (reason: string): Outcome => {
      counters.deadLettered++;
      return Outcomes.deadLetter(`cannot index ${expected}: ${reason}`);
    };
    let accept: () => Promise<AcceptResult>;
    try {
      switch (record.topic) {
        case 'weather.precipitation.v1': {
          const event = weatherV1.PrecipitationEvent.decode(bytes);
          accept = () => acceptPrecipitation(sinks, deps.areas(), event, bytes);
          break;
        }
        case 'weather.thunderstorm.v1': {
          const event = weatherV1.ThunderstormEvent.decode(bytes);
          accept = () => acceptThunderstorm(sinks, deps.areas(), event, bytes);
          break;
        }
        default: {
          const event = weatherV1.ForecastEvent.decode(bytes);
          if (!event.eventId || !event.runId || (event.revision?.revision ?? 0) < 1) return poison('event_id, run_id and a revision of 1 or more are required');
          accept = () => acceptForecast(sinks, event, bytes);
        }
      }
    } catch (error) {
      return poison(`undecodable protobuf: ${(error as Error).message}`);
    }
    let result: AcceptResult;
    try {
      result = await accept();
    } catch (error) {
      // Only a record that can never be indexed is poison; database trouble is retried.
      if (error instanceof UnindexableEvent) return poison(error.message);
      throw error;
    }
    if (result === 'stored') counters.stored++;
    else counters.duplicates++;
    return Outcomes.ok();
  };
}
