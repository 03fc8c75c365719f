import { Kafka, logLevel } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { testKafkaSasl, type ServiceTestEnv, type TestInfra } from './infra.js';

/**
 * Deletes the topics and consumer groups services created under a test's prefix, so test runs leave
 * the shared broker as they found it.
 */
export async function deletePrefixedTopics(brokers: string[], prefix: string): Promise<void> {
  const admin = new Kafka({ clientId: 'test-cleanup', brokers, logLevel: logLevel.NOTHING, ...testKafkaSasl() }).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${prefix}.`));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 10_000 });
    const { groups } = await admin.listGroups();
    const ours = groups.map((g) => g.groupId).filter((g) => g.startsWith(prefix));
    if (ours.length > 0) await admin.deleteGroups(ours).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}

/** Drops every database services created under a test's prefix (`<prefix>_<service>`). */
export async function dropPrefixedDatabases(mongoUrl: string, prefix: string): Promise<void> {
  const client = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 5_000 });
  await client.connect();
  try {
    const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
    for (const { name } of databases) if (name.startsWith(`${prefix}_`)) await client.db(name).dropDatabase();
  } finally {
    await client.close();
  }
}

/**
 * Removes a service test's corner of the shared infrastructure ({@link serviceTestEnv}): the topics
 * and consumer groups under its topic prefix and the databases under its database prefix.
 */
export async function removeServiceTestEnv(infra: TestInfra, env: ServiceTestEnv): Promise<void> {
  await deletePrefixedTopics(infra.kafkaBrokers, env.topicPrefix);
  await dropPrefixedDatabases(infra.mongoUrl, env.dbPrefix);
}
