import { Kafka, logLevel } from 'kafkajs';

/**
 * Deletes the topics and consumer groups services created under a test's prefix, so test runs leave
 * the shared broker as they found it.
 */
export async function deletePrefixedTopics(brokers: string[], prefix: string): Promise<void> {
  const admin = new Kafka({ clientId: 'test-cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${prefix}.`));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 10_000 });
    const { groups } = await admin.listGroups();
    const ours = groups.map((g) => g.groupId).filter((g) => g.startsWith(`${prefix}.`) || g.startsWith(prefix));
    if (ours.length > 0) await admin.deleteGroups(ours).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}
