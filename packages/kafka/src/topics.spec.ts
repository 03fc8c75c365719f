import assert from 'node:assert/strict';
import { consumerGroupId } from './consumer-group.js';
import { EventTypes } from './event-types.js';
import { topicNamer } from './topic-namer.js';
import { allTopics, channelSpec, isChannelName, isTopicName, TopicNames, TOPICS, topicSpec, type TopicName } from './topics.js';

describe('topic catalogue', () => {
  it('names every topic <domain>.<event>.v<N>', () => {
    for (const { name } of allTopics()) assert.match(name, /^[a-z]+\.[a-z]+(-[a-z]+)*\.v[1-9][0-9]*$/, name);
  });

  it('holds the topics the services rely on', () => {
    const expected: TopicName[] = [
      'feed.precipitation.v1',
      'feed.lightning.v1',
      'feed.thunderstorm.v1',
      'feed.forecast.v1',
      'weather.precipitation.v1',
      'weather.lightning.v1',
      'weather.thunderstorm.v1',
      'weather.forecast.v1',
      'alarm.registration-changed.v1',
      'alarm.triggered.v1',
      'alarm.delivery-failed.v1',
      'identity.user-changed.v1',
      'notification.message-requested.v1',
      'deadletter.records.v1',
    ];
    assert.deepEqual(
      allTopics()
        .map((t) => t.name)
        .sort(),
      [...expected].sort(),
    );
  });

  it('partitions normalised weather 6 ways so matching can scale out by area', () => {
    for (const t of allTopics().filter((t) => t.name.startsWith('weather.'))) assert.equal(t.partitions, 6, t.name);
  });

  it('gives every topic sane settings and every event type exactly one home', () => {
    const homes = new Map<string, string>();
    for (const t of allTopics()) {
      assert.ok(Number.isInteger(t.partitions) && t.partitions >= 1, t.name);
      assert.ok(t.retentionMs >= 60 * 60 * 1000, t.name);
      assert.ok(t.description.length > 10, t.name);
      for (const type of t.eventTypes) {
        assert.equal(homes.get(type), undefined, `${type} on two topics`);
        homes.set(type, t.name);
      }
    }
    assert.deepEqual([...homes.keys()].sort(), Object.values(EventTypes).sort());
    assert.deepEqual(topicSpec('deadletter.records.v1').eventTypes, []);
  });

  it('names each topic once among its constants', () => {
    assert.deepEqual(Object.values(TopicNames).sort(), Object.keys(TOPICS).sort());
  });

  it('makes every topic but the dead-letter one a channel whose codec reads its one event type', () => {
    for (const { name } of allTopics()) {
      if (name === TopicNames.DeadLetter) {
        assert.equal(isChannelName(name), false);
        continue;
      }
      assert.ok(isChannelName(name), name);
      const channel = channelSpec(name);
      assert.deepEqual(topicSpec(name).eventTypes, [channel.eventType], name);
      assert.equal(channel.codec.typeName, channel.eventType, name);
    }
  });

  it('recognises catalogue names only', () => {
    assert.equal(isTopicName('alarm.triggered.v1'), true);
    assert.equal(isTopicName('alarm.triggered.v2'), false);
    assert.equal(isTopicName('toString'), false);
    assert.equal(Object.keys(TOPICS).length, allTopics().length);
  });
});

describe('topicNamer', () => {
  it('leaves names alone without a prefix', () => {
    const namer = topicNamer();
    assert.equal(namer.physical('alarm.triggered.v1'), 'alarm.triggered.v1');
    assert.equal(namer.logical('alarm.triggered.v1'), 'alarm.triggered.v1');
  });

  it('prefixes and maps back, ignoring topics outside the prefix', () => {
    const namer = topicNamer('t-1');
    assert.equal(namer.physical('feed.lightning.v1'), 't-1.feed.lightning.v1');
    assert.equal(namer.logical('t-1.feed.lightning.v1'), 'feed.lightning.v1');
    assert.equal(namer.logical('feed.lightning.v1'), undefined);
    assert.equal(namer.logical('t-2.feed.lightning.v1'), undefined);
    assert.equal(namer.logical('t-1.other.v1'), undefined);
  });

  it('rejects prefixes Kafka would not accept', () => {
    assert.throws(() => topicNamer('bad/prefix'), /invalid topic prefix/);
    assert.throws(() => topicNamer(''), /invalid topic prefix/);
  });
});

describe('consumerGroupId', () => {
  it('prefixes a group like the topics, and leaves it alone without a prefix', () => {
    assert.equal(consumerGroupId('stormhook-ingest', 't-1'), 't-1.stormhook-ingest');
    assert.equal(consumerGroupId('stormhook-ingest'), 'stormhook-ingest');
    assert.equal(consumerGroupId('stormhook-ingest', ''), 'stormhook-ingest', 'an empty STORMHOOK_TOPIC_PREFIX is no prefix');
    assert.throws(() => consumerGroupId(''), /needs a name/);
  });
});
