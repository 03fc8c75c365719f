import assert from 'node:assert/strict';
import { EventTypes, TopicNames, type ConsumedRecord } from '@stormhook/kafka';
import { weatherV1 } from '@stormhook/proto';
import { weatherFeedHandler, type StreamTarget } from './weather-feed.js';
import type { StreamItem } from './stream-selection.js';

class Target implements StreamTarget {
  readonly items: StreamItem[] = [];
  constructor(public size: number) {}
  publish(item: StreamItem): void {
    this.items.push(item);
  }
}

function record(value: Uint8Array, eventType: string = EventTypes.LightningEvent): ConsumedRecord {
  return {
    topic: TopicNames.WeatherLightning,
    partition: 0,
    offset: '0',
    key: 'sxk',
    value: Buffer.from(value),
    headers: { eventType, eventId: 'evt_1', schemaVersion: 1, contentType: 'application/x-protobuf', all: {} },
    timestamp: new Date(),
  };
}

const strike = weatherV1.LightningEvent.encode({
  eventId: 'ltg_1',
  sourceEventId: '1',
  revision: { revision: 1, sourceVersion: 0, sourceUpdatedEpochMs: 0, ingestedEpochMs: 0 },
  areaKey: 'sxk',
  timeEpochMs: 1_795_788_000_000,
  type: 'LIGHTNING_TYPE_FLASH_IN_CLOUD',
  location: { lng: 32.85, lat: 39.93 },
  peakCurrentAmperes: 9_000,
  inCloudHeightM: 6_500,
  multiplicity: 3,
});

describe('the weather feed handler', () => {
  it('hands a decoded strike to the hub while a stream is open', async () => {
    const target = new Target(1);
    const outcome = await weatherFeedHandler(target, () => undefined)(record(strike));
    assert.equal(outcome.kind, 'ok');
    assert.equal(target.items.length, 1);
    assert.equal(target.items[0]!.kind, 'lightning');
    assert.match(target.items[0]!.frame, /"dischargeType":"FLASH_IN_CLOUD".*"inCloudHeight":6500/);
  });

  it('passes records over, without decoding them, while no stream is open', async () => {
    const target = new Target(0);
    const outcome = await weatherFeedHandler(target, () => undefined)(record(Buffer.from('not protobuf at all')));
    assert.equal(outcome.kind, 'ok');
    assert.equal(target.items.length, 0);
  });

  it('skips a record that is not its channel\u2019s event, rather than dead-lettering it', async () => {
    const target = new Target(1);
    const outcome = await weatherFeedHandler(target, () => undefined)(record(strike, EventTypes.PrecipitationEvent));
    assert.equal(outcome.kind, 'ok');
    assert.equal(target.items.length, 0);
  });
});
