import assert from 'node:assert/strict';
import { channelHandler, EventTypes, TopicNames, type ConsumedRecord, type TopicName } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { weatherV1 } from '@stormhook/proto';
import { AreaIndex } from '@stormhook/access';
import { bboxOfParts, flattenMultiPolygon } from '@stormhook/geometry';
import { ForecastStore } from '../forecast/forecast-store.js';
import type { ForecastRepository } from '../persistence/forecast-repository.js';
import type { PayloadStore } from '../persistence/payload-store.js';
import type { SegmentLog } from '../persistence/segment-log.js';
import type { IndexEntry } from '../read-models/entry.js';
import { EventReadModel } from '../read-models/event-read-model.js';
import type { WeatherSinks } from '../usecases/accept-weather.js';
import { newWeatherCounters, weatherChannels, type WeatherCounters } from './weather-consumer.js';

/** In-memory stand-ins of the service's own storage ports. */
function sinks(): { sinks: WeatherSinks; writes: string[] } {
  const writes: string[] = [];
  const log = {
    append: async (e: { eventId: string; revision: number }) => void writes.push(`journal ${e.eventId}:${e.revision}`),
  } as unknown as SegmentLog<IndexEntry>;
  const payloads = { put: async (id: string, rev: number) => void writes.push(`payload ${id}:${rev}`) } as unknown as PayloadStore;
  const logger = createLogger({ service: 'test', level: 'silent' });
  const model = <E>(decode: (b: Uint8Array) => E) => new EventReadModel<E>({ log, payloads, decode, cacheWeight: 10, weigh: () => 1, logger });
  return {
    writes,
    sinks: {
      precipitations: model(weatherV1.PrecipitationEvent.decode),
      thunderstorms: model(weatherV1.ThunderstormEvent.decode),
      forecasts: new ForecastStore(),
      forecastRepository: { put: async () => void writes.push('forecast') } as unknown as ForecastRepository,
    },
  };
}

const ring = [
  { lng: 32.8, lat: 39.9 },
  { lng: 32.9, lat: 39.9 },
  { lng: 32.9, lat: 40.0 },
  { lng: 32.8, lat: 39.9 },
];
const parts = flattenMultiPolygon([{ exterior: ring.map((p) => [p.lng, p.lat] as const), holes: [] }]);
const areas = new AreaIndex([{ key: 'TUR:6', countryCode: 'TUR', name: 'Ankara', parts, bbox: bboxOfParts(parts) }]);

/** The handler as the consumer runs it: channel checks and decode, then the query's handlers. */
function weatherHandler(deps: { sinks: WeatherSinks; areas: () => AreaIndex; counters: WeatherCounters }) {
  const channels = weatherChannels(deps);
  return channelHandler(channels.handlers, channels);
}

function record(topic: TopicName, value: Uint8Array, eventType: string): ConsumedRecord {
  return {
    topic,
    partition: 0,
    offset: '0',
    key: 'sxk',
    value: Buffer.from(value),
    headers: { eventType, eventId: 'evt_1', schemaVersion: 1, contentType: 'application/x-protobuf' } as ConsumedRecord['headers'],
    timestamp: new Date(),
  };
}

const event = (overrides: Partial<weatherV1.PrecipitationEvent> = {}) =>
  weatherV1.PrecipitationEvent.encode(
    weatherV1.PrecipitationEvent.create({
      eventId: 'prc_1',
      revision: { revision: 1 },
      radarTimestampEpochMs: 1000,
      intensity: 'PRECIPITATION_INTENSITY_LIGHT',
      geometry: { polygons: [{ exterior: { points: ring }, holes: [] }] },
      ...overrides,
    }),
  );

describe('the weather consumer handler', () => {
  it('stores a new event once, tagged with the areas it touches, and takes a re-delivery as a duplicate', async () => {
    const { sinks: s, writes } = sinks();
    const counters = newWeatherCounters();
    const handle = weatherHandler({ sinks: s, areas: () => areas, counters });
    assert.deepEqual(await handle(record(TopicNames.WeatherPrecipitation, event(), EventTypes.PrecipitationEvent)), { kind: 'ok' });
    assert.deepEqual(await handle(record(TopicNames.WeatherPrecipitation, event(), EventTypes.PrecipitationEvent)), { kind: 'ok' });
    assert.deepEqual(writes, ['payload prc_1:1', 'journal prc_1:1']);
    assert.deepEqual(counters, { stored: 1, duplicates: 1, deadLettered: 0 });
    assert.deepEqual(s.precipitations.index.get('prc_1')?.areas, ['TUR:6']);
  });

  it('dead-letters records it can never index: wrong event type, undecodable bytes, no geometry, no revision', async () => {
    const { sinks: s, writes } = sinks();
    const counters = newWeatherCounters();
    const handle = weatherHandler({ sinks: s, areas: () => areas, counters });
    const outcomes = [
      await handle(record(TopicNames.WeatherPrecipitation, event(), EventTypes.ThunderstormEvent)),
      await handle(record(TopicNames.WeatherPrecipitation, Buffer.from([0xff, 0xff, 0xff]), EventTypes.PrecipitationEvent)),
      await handle(record(TopicNames.WeatherPrecipitation, event({ geometry: null }), EventTypes.PrecipitationEvent)),
      await handle(record(TopicNames.WeatherPrecipitation, event({ revision: null }), EventTypes.PrecipitationEvent)),
    ];
    assert.deepEqual(
      outcomes.map((o) => o.kind),
      ['dead-letter', 'dead-letter', 'dead-letter', 'dead-letter'],
    );
    assert.match((outcomes[2] as { reason: string }).reason, /geometry has no polygon/);
    assert.deepEqual(writes, []);
    assert.deepEqual(counters, { stored: 0, duplicates: 0, deadLettered: 4 });
  });
});
