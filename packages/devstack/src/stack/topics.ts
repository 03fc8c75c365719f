import { Kafka, logLevel } from 'kafkajs';
import { allTopics, ensureTopics } from '@stormhook/kafka';

/** Pre-creates every topic of the catalogue (KRaft's auto-creation races with the first producer). */
export async function createTopics(brokers: string[], log: (m: string) => void, prefix?: string): Promise<void> {
  const kafka = new Kafka({ clientId: 'stormhook-devstack', brokers, logLevel: logLevel.WARN });
  const topics = allTopics();
  const result = await ensureTopics(kafka, topics, prefix ? { prefix } : {});
  log(`topics ready: ${topics.length} in the catalogue, ${result.created.length} created now`);
}
