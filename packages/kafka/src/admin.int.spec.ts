import assert from 'node:assert/strict';
// kafkajs is CommonJS and Node cannot see ConfigResourceTypes as a named export.
import kafkajs, { type Kafka } from 'kafkajs';
import { deleteTopics, ensureTopics, kafkaHealth } from './admin.js';
import { createKafkaClient } from './client.js';
import { testKafka, testLogger, uniqueName, withAdmin } from './int-support.js';
import { TopicNames, topicSpec, type TopicName } from './topics.js';

describe('admin (real broker)', () => {
  let kafka: Kafka;
  const prefix = uniqueName('kafka-admin');
  const names: TopicName[] = [TopicNames.WeatherLightning, TopicNames.RegistrationChanged, TopicNames.DeadLetter];

  before(() => {
    kafka = testKafka();
  });

  after(async () => {
    await deleteTopics(kafka, names, { prefix });
  });

  it('creates missing topics once, with catalogue settings, and is idempotent', async () => {
    const specs = names.map(topicSpec);
    const physical = names.map((n) => `${prefix}.${n}`);

    const first = await ensureTopics(kafka, specs, { prefix });
    assert.deepEqual([...first.created].sort(), [...physical].sort());
    assert.deepEqual(first.existing, []);

    const second = await ensureTopics(kafka, specs, { prefix });
    assert.deepEqual(second.created, []);
    assert.deepEqual([...second.existing].sort(), [...physical].sort());

    await withAdmin(kafka, async (admin) => {
      const { topics } = await admin.fetchTopicMetadata({ topics: physical });
      for (const name of names) {
        const meta = topics.find((t) => t.name === `${prefix}.${name}`);
        assert.equal(meta?.partitions.length, topicSpec(name).partitions, name);
      }
      const configs = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [
          { type: kafkajs.ConfigResourceTypes.TOPIC, name: `${prefix}.${TopicNames.RegistrationChanged}`, configNames: ['retention.ms', 'cleanup.policy'] },
        ],
      });
      const entries = configs.resources[0]?.configEntries ?? [];
      assert.equal(entries.find((e) => e.configName === 'retention.ms')?.configValue, String(topicSpec(TopicNames.RegistrationChanged).retentionMs));
      assert.equal(entries.find((e) => e.configName === 'cleanup.policy')?.configValue, 'delete');
    });
  });

  it('survives concurrent callers racing to create the same topics', async () => {
    const racePrefix = uniqueName('kafka-race');
    const specs = [topicSpec(TopicNames.FeedForecast)];
    try {
      const results = await Promise.all([1, 2, 3].map(() => ensureTopics(kafka, specs, { prefix: racePrefix })));
      const created = results.flatMap((r) => r.created);
      assert.ok(created.length <= 1 || created.every((c) => c === `${racePrefix}.${TopicNames.FeedForecast}`));
      const listed = await withAdmin(kafka, (admin) => admin.listTopics());
      assert.ok(listed.includes(`${racePrefix}.${TopicNames.FeedForecast}`));
    } finally {
      await deleteTopics(kafka, [TopicNames.FeedForecast], { prefix: racePrefix });
    }
  });

  it('reports a reachable broker healthy and an unreachable one unhealthy without throwing', async () => {
    const healthy = await withAdmin(kafka, (admin) => kafkaHealth(admin));
    assert.equal(healthy.ok, true);
    if (healthy.ok) assert.ok(healthy.brokers >= 1);

    const nowhere = createKafkaClient({ brokers: ['127.0.0.1:1'], credentials: null, clientId: 'nowhere', logger: testLogger() });
    const down = await kafkaHealth(nowhere.admin({ retry: { retries: 0 } }), 1_000);
    assert.equal(down.ok, false);
  });

  it('deletes only the prefixed topics it is asked to', async () => {
    const own = uniqueName('kafka-del');
    await ensureTopics(kafka, [topicSpec(TopicNames.FeedThunderstorm), topicSpec(TopicNames.FeedPrecipitation)], { prefix: own });
    try {
      await deleteTopics(kafka, [TopicNames.FeedThunderstorm], { prefix: own });
      const listed = await withAdmin(kafka, (admin) => admin.listTopics());
      assert.ok(!listed.includes(`${own}.${TopicNames.FeedThunderstorm}`));
      assert.ok(listed.includes(`${own}.${TopicNames.FeedPrecipitation}`));
    } finally {
      await deleteTopics(kafka, [TopicNames.FeedThunderstorm, TopicNames.FeedPrecipitation], { prefix: own });
    }
  });
});
