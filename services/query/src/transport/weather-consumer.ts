import { channelSpec, Outcomes, TopicNames, type ChannelConsumerOptions, type ChannelRecord, type Outcome } from '@stormhook/kafka';
import type { AreaIndex } from '@stormhook/access';
import { UnindexableEvent } from '../domain/event-entries.js';
import type { AcceptResult } from '../read-models/event-read-model.js';
import { acceptForecast, acceptPrecipitation, acceptThunderstorm, type WeatherSinks } from '../usecases/accept-weather.js';

/**
 * The weather channels the query service reads. Lightning is not among them: no query operation
 * lists strokes (alarm-matcher consumes them).
 */
type QueryChannel = typeof TopicNames.WeatherPrecipitation | typeof TopicNames.WeatherThunderstorm | typeof TopicNames.WeatherForecast;

export interface WeatherCounters {
  stored: number;
  duplicates: number;
  deadLettered: number;
}

export function newWeatherCounters(): WeatherCounters {
  return { stored: 0, duplicates: 0, deadLettered: 0 };
}

/**
 * Turns weather records into read-model updates: the handlers of the weather channels, and the
 * count of records the channel checks dead-letter before they get here. A record that cannot be
 * decoded or indexed is poison and goes to the dead-letter topic; a database failure is transient
 * and retried (the consumer stops, visibly, if it never clears).
 */
export function weatherChannels(deps: {
  sinks: WeatherSinks;
  areas: () => AreaIndex;
  counters: WeatherCounters;
}): Pick<ChannelConsumerOptions<QueryChannel>, 'handlers' | 'onRejected'> {
  const { sinks, counters } = deps;
  const poison = (record: ChannelRecord<QueryChannel>, reason: string): Outcome => {
    counters.deadLettered++;
    return Outcomes.deadLetter(`cannot index ${channelSpec(record.topic).eventType}: ${reason}`);
  };
  const store = async (record: ChannelRecord<QueryChannel>, accept: () => Promise<AcceptResult>): Promise<Outcome> => {
    let result: AcceptResult;
    try {
      result = await accept();
    } catch (error) {
      // Only a record that can never be indexed is poison; database trouble is retried.
      if (error instanceof UnindexableEvent) return poison(record, error.message);
      throw error;
    }
    if (result === 'stored') counters.stored++;
    else counters.duplicates++;
    return Outcomes.ok();
  };
  return {
    handlers: {
      [TopicNames.WeatherPrecipitation]: (record) => store(record, () => acceptPrecipitation(sinks, deps.areas(), record.message, record.value)),
      [TopicNames.WeatherThunderstorm]: (record) => store(record, () => acceptThunderstorm(sinks, deps.areas(), record.message, record.value)),
      [TopicNames.WeatherForecast]: async (record) => {
        const event = record.message;
        if (!event.eventId || !event.runId || (event.revision?.revision ?? 0) < 1)
          return poison(record, 'event_id, run_id and a revision of 1 or more are required');
        return store(record, () => acceptForecast(sinks, event, record.value));
      },
    },
    onRejected: () => {
      counters.deadLettered++;
    },
  };
}
