import assert from 'node:assert/strict';
import type { Kafka } from 'kafkajs';
import { testInfra } from '@stormhook/testing';
import { applyAcls } from './acls.js';
import { deleteTopics, ensureTopics } from './admin.js';
import { createKafkaClient } from './client.js';
import { consumerGroupId } from './consumer-group.js';
import { testBrokers, testKafka, testLogger, uniqueName, waitFor } from './int-support.js';
import { aclRules, GROUP_ACCESS, type KafkaPrincipal } from './topic-access.js';
import { topicNamer } from './topic-namer.js';
import { allTopics, TopicNames } from './topics.js';

const logger = testLogger();

/** A client that logs in as one principal of the table, with the password the broker was formatted with. */
function clientAs(principal: KafkaPrincipal): Kafka {
  return createKafkaClient({ brokers: testBrokers(), credentials: testInfra().kafkaLogin(principal), clientId: uniqueName(`as-${principal}`), logger });
}

/**
 * The refusals the access table promises, on the real embedded broker (SASL/SCRAM and the
 * StandardAuthorizer are on by default): the table's rules are applied for this test's prefix, exactly
 * as `npm start` applies them for the stack's, and each principal tries what it must not do.
 */
describe('Kafka access: authentication and the access table (real broker)', function () {
  this.timeout(60_000);
  const prefix = uniqueName('kafka-acl');
  const names = topicNamer(prefix);
  let admin: Kafka;

  before(async () => {
    admin = testKafka(logger);
    await ensureTopics(admin, allTopics(), { prefix });
    await applyAcls(admin, aclRules(prefix));
  });

  after(async () => {
    await deleteTopics(
      admin,
      allTopics().map((t) => t.name),
      { prefix },
    );
  });

  it('refuses a client that does not log in', async () => {
    const anonymous = createKafkaClient({ brokers: testBrokers(), credentials: null, clientId: uniqueName('anonymous'), logger });
    const producer = anonymous.producer({ retry: { retries: 0 } });
    await assert.rejects(async () => {
      await producer.connect();
      await producer.send({ topic: names.physical(TopicNames.FeedLightning), messages: [{ key: 'k', value: 'v' }] });
    });
    await producer.disconnect().catch(() => undefined);
  });

  it('refuses a wrong password', async () => {
    const impostor = createKafkaClient({
      brokers: testBrokers(),
      credentials: { username: 'publisher', password: 'guessed' },
      clientId: uniqueName('impostor'),
      logger,
    });
    const producer = impostor.producer({ retry: { retries: 0 } });
    await assert.rejects(producer.connect(), /SASL|authenticat/i);
  });

  it("refuses ingest reading notification.message-requested.v1 (where reset tokens travel), in ingest's own group", async () => {
    const consumer = clientAs('ingest').consumer({ groupId: consumerGroupId(`${GROUP_ACCESS.ingest[0]}.probe`, prefix), retry: { retries: 0 } });
    await consumer.connect();
    try {
      await assert.rejects(consumer.subscribe({ topic: names.physical(TopicNames.MessageRequested), fromBeginning: true }), /not authorized|authoriz/i);
    } finally {
      await consumer.disconnect();
    }
  });

  it('refuses the data publisher writing alarm.triggered.v1', async () => {
    const producer = clientAs('publisher').producer({ retry: { retries: 0 } });
    await producer.connect();
    try {
      await assert.rejects(
        producer.send({ topic: names.physical(TopicNames.AlarmTriggered), messages: [{ key: 'acc_forged', value: 'forged' }] }),
        /not authorized|authoriz/i,
      );
    } finally {
      await producer.disconnect();
    }
  });

  it('lets the data publisher write feed.lightning.v1, and ingest read it in its group', async () => {
    const topic = names.physical(TopicNames.FeedLightning);
    const producer = clientAs('publisher').producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      await producer.send({ topic, acks: -1, messages: [{ key: 'strike-1', value: 'allowed' }] });
    } finally {
      await producer.disconnect();
    }
    const consumer = clientAs('ingest').consumer({ groupId: consumerGroupId(GROUP_ACCESS.ingest[0], prefix) });
    const seen: string[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          seen.push(message.value?.toString('utf8') ?? '');
        },
      });
      await waitFor(() => seen.includes('allowed'), 'ingest reading the published strike', 30_000);
    } finally {
      await consumer.disconnect();
    }
  });

  it('lets the gateway read the three weather topics of its stream in a weather-stream group of its own, as the stream reads them', async () => {
    const topics = [TopicNames.WeatherLightning, TopicNames.WeatherThunderstorm, TopicNames.WeatherPrecipitation].map((t) => names.physical(t));
    const producer = testKafka(logger).producer();
    await producer.connect();
    try {
      for (const topic of topics) await producer.send({ topic, acks: -1, messages: [{ key: 'sxk', value: topic }] });
    } finally {
      await producer.disconnect();
    }
    const group = GROUP_ACCESS.gateway.find((g) => g.includes('weather-stream'));
    assert.ok(group, 'the gateway has a weather-stream group prefix');
    const consumer = clientAs('gateway').consumer({ groupId: consumerGroupId(`${group}probe`, prefix) });
    const seen = new Set<string>();
    await consumer.connect();
    try {
      for (const topic of topics) await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          seen.add(message.value?.toString('utf8') ?? '');
        },
      });
      await waitFor(() => topics.every((t) => seen.has(t)), 'the gateway reading every weather topic', 30_000);
    } finally {
      await consumer.disconnect();
    }
  });

  it("refuses query joining ingest's consumer group, on a topic query may read, and lets it join its own", async () => {
    const topic = names.physical(TopicNames.WeatherPrecipitation);
    const foreign = clientAs('query').consumer({ groupId: consumerGroupId(`${GROUP_ACCESS.ingest[0]}.probe`, prefix), retry: { retries: 0 } });
    const crashed = new Promise<Error>((resolve) => foreign.on(foreign.events.CRASH, ({ payload }) => resolve(payload.error)));
    await foreign.connect();
    try {
      await foreign.subscribe({ topic, fromBeginning: true });
      await foreign.run({ eachMessage: async () => undefined });
      // The broker answers FindCoordinator with GROUP_AUTHORIZATION_FAILED; kafkajs reports it as not
      // finding the coordinator. The same consumer in query's own group joins (below), so the group is why.
      assert.match((await crashed).message, /authoriz|group coordinator/i);
    } finally {
      await foreign.disconnect().catch(() => undefined);
    }
    const own = clientAs('query').consumer({ groupId: consumerGroupId(`${GROUP_ACCESS.query[0]}.probe`, prefix) });
    const joined = new Promise<void>((resolve) => own.on(own.events.GROUP_JOIN, () => resolve()));
    await own.connect();
    try {
      await own.subscribe({ topic, fromBeginning: true });
      await own.run({ eachMessage: async () => undefined });
      await joined;
    } finally {
      await own.disconnect();
    }
  });
});
