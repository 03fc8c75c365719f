import assert from 'node:assert/strict';
import { weatherV1 } from '@stormhook/proto';
import { channelHandler, channelsOf, type ChannelHandlers } from './channel-handler.js';
import { channelEvents } from './channel-events.js';
import { EventTypes } from './event-types.js';
import { PROTOBUF_CONTENT_TYPE, type EventHeaders } from './headers.js';
import { Outcomes } from './outcome.js';
import type { ConsumedRecord } from './record.js';
import { TopicNames, type TopicName } from './topics.js';

function record(topic: TopicName, value: Uint8Array, headers: Partial<EventHeaders> = {}): ConsumedRecord {
  return {
    topic,
    partition: 0,
    offset: '7',
    key: 'sxk',
    value: Buffer.from(value),
    timestamp: new Date(0),
    headers: { eventType: EventTypes.LightningEvent, eventId: 'evt_1', schemaVersion: 1, contentType: PROTOBUF_CONTENT_TYPE, all: {}, ...headers },
  };
}

const strike = weatherV1.LightningEvent.encode(weatherV1.LightningEvent.create({ eventId: 'ltg_1', peakCurrentAmperes: -12_000 }));

describe('channel handler', () => {
  const setup = (options: Parameters<typeof channelHandler>[1] = {}) => {
    const seen: string[] = [];
    const handlers: ChannelHandlers<typeof TopicNames.WeatherLightning | typeof TopicNames.WeatherForecast> = {
      [TopicNames.WeatherLightning]: async (r) => {
        seen.push(`${r.topic} ${r.message.eventId} ${r.message.peakCurrentAmperes} ${r.offset}`);
        return Outcomes.ok();
      },
      [TopicNames.WeatherForecast]: async (r) => {
        seen.push(`${r.topic} ${r.message.runId}`);
        return Outcomes.retry('database down');
      },
    };
    return { seen, handle: channelHandler(handlers, options), handlers };
  };

  it('hands each channel its records decoded, with the record around them', async () => {
    const { seen, handle } = setup();
    assert.deepEqual(await handle(record(TopicNames.WeatherLightning, strike)), { kind: 'ok' });
    const forecast = weatherV1.ForecastEvent.encode(weatherV1.ForecastEvent.create({ runId: 'run_1' }));
    assert.deepEqual(await handle(record(TopicNames.WeatherForecast, forecast, { eventType: EventTypes.ForecastEvent })), {
      kind: 'retry',
      reason: 'database down',
    });
    assert.deepEqual(seen, ['weather.lightning.v1 ltg_1 -12000 7', 'weather.forecast.v1 run_1']);
  });

  it('dead-letters, without calling the handler, a record of another event type, not protobuf, of an unknown version, or undecodable', async () => {
    const rejected: string[] = [];
    const { seen, handle } = setup({ onRejected: (r, reason) => rejected.push(`${r.offset}: ${reason}`) });
    const outcomes = [
      await handle(record(TopicNames.WeatherLightning, strike, { eventType: EventTypes.ThunderstormEvent })),
      await handle(record(TopicNames.WeatherLightning, Buffer.from('{}'), { contentType: 'application/json' })),
      await handle(record(TopicNames.WeatherLightning, strike, { schemaVersion: 2 })),
      await handle(record(TopicNames.WeatherLightning, Buffer.from([0x0a, 0xff, 0xff, 0xff]))),
      await handle(record(TopicNames.WeatherThunderstorm, strike, { eventType: EventTypes.ThunderstormEvent })),
    ];
    assert.deepEqual(seen, []);
    const reasons = outcomes.map((o) => (o.kind === 'dead-letter' ? o.reason : o.kind));
    assert.equal(
      reasons[0],
      'header event-type is "stormhook.weather.v1.ThunderstormEvent", but weather.lightning.v1 carries stormhook.weather.v1.LightningEvent',
    );
    assert.equal(reasons[1], 'header content-type is "application/json", but weather.lightning.v1 carries application/x-protobuf');
    assert.equal(reasons[2], 'header schema-version is 2; this consumer reads version 1');
    assert.match(reasons[3] ?? '', /^value is not a valid stormhook\.weather\.v1\.LightningEvent: /);
    assert.equal(reasons[4], 'no handler for topic weather.thunderstorm.v1');
    assert.deepEqual(
      rejected,
      reasons.map((r) => `7: ${r}`),
    );
  });

  it('skips such records instead when told to', async () => {
    const { seen, handle } = setup({ onMismatch: 'skip' });
    assert.deepEqual(await handle(record(TopicNames.WeatherLightning, strike, { eventType: EventTypes.ForecastEvent })), { kind: 'ok' });
    assert.deepEqual(seen, []);
  });

  it('reads the channels of a consumer from its handlers', () => {
    assert.deepEqual(channelsOf(setup().handlers), [TopicNames.WeatherLightning, TopicNames.WeatherForecast]);
  });
});

describe('channel events', () => {
  it('encodes messages with the channel codec and labels them with its event type', () => {
    const [event] = channelEvents(TopicNames.WeatherLightning, [
      { key: 'sxk', message: weatherV1.LightningEvent.create({ eventId: 'ltg_2' }), eventId: 'evt_2' },
    ]);
    assert.equal(event?.eventType, EventTypes.LightningEvent);
    assert.equal(event?.eventId, 'evt_2');
    assert.equal(event?.key, 'sxk');
    assert.equal(weatherV1.LightningEvent.decode(event!.value).eventId, 'ltg_2');
    const [anonymous] = channelEvents(TopicNames.WeatherLightning, [{ key: null, message: weatherV1.LightningEvent.create({}) }]);
    assert.equal(Object.hasOwn(anonymous!, 'eventId'), false, 'the publisher gives it a new id');
  });
});
