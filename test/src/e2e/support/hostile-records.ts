import { EventTypes, TopicNames, type RawRecord } from '@stormhook/kafka';
import { feedV1 } from '@stormhook/proto';
import type { FeedTopic } from './feed-publisher.js';
import { forecastGrid, HOUR, lightning, MINUTE, precipitation, square, thunderstorm, type Place } from './feed-records.js';

/** One record a careless or hostile publisher sends, and what is wrong with it. */
export interface HostileRecord {
  topic: FeedTopic;
  key: string;
  flaw: string;
  record: RawRecord;
}

const EVENT_TYPE_OF: Record<FeedTopic, string> = {
  [TopicNames.FeedPrecipitation]: EventTypes.PrecipitationObservation,
  [TopicNames.FeedLightning]: EventTypes.LightningStrike,
  [TopicNames.FeedThunderstorm]: EventTypes.ThunderstormCell,
  [TopicNames.FeedForecast]: EventTypes.ForecastGrid,
};

const ANKARA: Place = { lng: 32.86, lat: 39.87 };

/** A ring of `count` vertices around `c` (closed): over the 20,000-vertex limit when count is large. */
function manyVertexRing(c: Place, count: number): { points: Array<{ lng: number; lat: number }> } {
  const points = Array.from({ length: count - 1 }, (_, i) => {
    const angle = (2 * Math.PI * i) / (count - 1);
    return { lng: c.lng + 0.1 * Math.cos(angle), lat: c.lat + 0.1 * Math.sin(angle) };
  });
  return { points: [...points, points[0]!] };
}

/** A valid record of the topic, encoded: the base the header-level flaws are put on. */
function validValue(topic: FeedTopic, id: string, now: number): Buffer {
  switch (topic) {
    case TopicNames.FeedPrecipitation:
      return Buffer.from(feedV1.PrecipitationObservation.encode(precipitation(id, ANKARA, now - MINUTE)));
    case TopicNames.FeedLightning:
      return Buffer.from(feedV1.LightningStrike.encode(lightning(id, ANKARA, now - MINUTE)));
    case TopicNames.FeedThunderstorm:
      return Buffer.from(feedV1.ThunderstormCell.encode(thunderstorm(id, ANKARA, now - 5 * MINUTE, now + 5 * MINUTE)));
    case TopicNames.FeedForecast: {
      const hour = Math.floor(now / HOUR) * HOUR;
      return Buffer.from(feedV1.ForecastGrid.encode(forecastGrid(id, hour, hour, [{ id: 'c1', at: ANKARA, base: 10 }], 6)));
    }
  }
}

/** A record that decodes but breaks a rule of FEEDS.md (the field is named in the reason). */
function ruleBroken(topic: FeedTopic, id: string, now: number): Buffer {
  switch (topic) {
    case TopicNames.FeedPrecipitation: {
      const open = precipitation(id, ANKARA, now - MINUTE);
      open.geometry = { polygons: [{ exterior: { points: square(ANKARA, 0.05).points.slice(0, 4) }, holes: [] }] };
      return Buffer.from(feedV1.PrecipitationObservation.encode(open));
    }
    case TopicNames.FeedLightning:
      return Buffer.from(feedV1.LightningStrike.encode({ ...lightning(id, ANKARA, now - MINUTE), latitude: 95 }));
    case TopicNames.FeedThunderstorm:
      return Buffer.from(feedV1.ThunderstormCell.encode(thunderstorm(id, ANKARA, now, now - 10 * MINUTE)));
    case TopicNames.FeedForecast: {
      const hour = Math.floor(now / HOUR) * HOUR;
      const grid = forecastGrid(id, hour, hour, [{ id: 'c1', at: ANKARA, base: 10 }], 6);
      grid.cells[0]!.series[0]!.values.pop(); // one value short of hour_count
      return Buffer.from(feedV1.ForecastGrid.encode(grid));
    }
  }
}

/** Under the broker's 1 MB but far over what the contract allows. */
function oversized(topic: FeedTopic, id: string, now: number): Buffer {
  switch (topic) {
    case TopicNames.FeedPrecipitation: {
      const big = precipitation(id, ANKARA, now - MINUTE);
      big.geometry = { polygons: [{ exterior: manyVertexRing(ANKARA, 25_000), holes: [] }] };
      return Buffer.from(feedV1.PrecipitationObservation.encode(big));
    }
    case TopicNames.FeedThunderstorm: {
      const big = thunderstorm(id, ANKARA, now - 5 * MINUTE, now + 5 * MINUTE);
      big.threatPolygon = { exterior: manyVertexRing(ANKARA, 25_000), holes: [] };
      return Buffer.from(feedV1.ThunderstormCell.encode(big));
    }
    case TopicNames.FeedForecast: {
      const hour = Math.floor(now / HOUR) * HOUR;
      const cells = Array.from({ length: 501 }, (_, i) => ({ id: `c${i}`, at: { lng: 30 + (i % 30) * 0.1, lat: 38 + Math.floor(i / 30) * 0.1 }, base: 10 }));
      return Buffer.from(feedV1.ForecastGrid.encode(forecastGrid(id, hour, hour, cells, 24)));
    }
    case TopicNames.FeedLightning:
      // A strike is a few dozen bytes; 900 KB of it can only be garbage.
      return Buffer.alloc(900_000, 0xff);
  }
}

/**
 * Every kind of reject FEEDS.md lists ("Rejected records"), on every raw topic: missing headers,
 * foreign event type, wrong content type and schema version, no value, bytes that do not decode,
 * a broken rule, and an oversized record. Keys are unique, so each reject can be found in the
 * dead-letter topic (which keeps key, value and headers).
 */
export function hostileRecords(topics: readonly FeedTopic[], tag: string, now = Date.now()): HostileRecord[] {
  const out: HostileRecord[] = [];
  for (const topic of topics) {
    const short = topic.split('.')[1]!;
    const eventType = EVENT_TYPE_OF[topic];
    const foreign = Object.values(EVENT_TYPE_OF).find((t) => t !== eventType)!;
    const headers = (overrides: Record<string, string | undefined> = {}) => {
      const base: Record<string, string | undefined> = {
        'event-type': eventType,
        'event-id': `evt_${tag}_${out.length}`,
        'content-type': 'application/x-protobuf',
        'schema-version': '1',
        ...overrides,
      };
      return Object.fromEntries(Object.entries(base).filter((entry): entry is [string, string] => entry[1] !== undefined));
    };
    const add = (flaw: string, value: Buffer | null, h: Record<string, string>) => {
      const key = `${tag}-${short}-${flaw}`;
      out.push({ topic, key, flaw, record: { key, value, headers: h } });
    };
    const id = (flaw: string) => `${tag}-${short}-${flaw}`;
    add('no-headers', validValue(topic, id('no-headers'), now), {});
    add('no-event-id', validValue(topic, id('no-event-id'), now), headers({ 'event-id': undefined }));
    add('foreign-event-type', validValue(topic, id('foreign-event-type'), now), headers({ 'event-type': foreign }));
    add('json-content-type', Buffer.from(JSON.stringify({ sourceEventId: id('json') })), headers({ 'content-type': 'application/json' }));
    add('schema-version-2', validValue(topic, id('schema-version-2'), now), headers({ 'schema-version': '2' }));
    add('no-value', null, headers());
    add('undecodable', Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01, 0x02]), headers());
    add('rule-broken', ruleBroken(topic, id('rule-broken'), now), headers());
    add('oversized', oversized(topic, id('oversized'), now), headers());
  }
  return out;
}
