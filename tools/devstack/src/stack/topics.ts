import { aclRules, allTopics, applyAcls, createKafkaClient, credentialsOf, ensureTopics, type KafkaCredentialSet } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';

/**
 * Pre-creates every topic of the catalogue (KRaft's auto-creation races with the first producer) and
 * grants the access table's rules for the stack's prefix, as the broker's super user: the services
 * run as their own principals and may do only what the table says.
 */
export async function prepareBus(brokers: string[], credentials: KafkaCredentialSet, log: (m: string) => void, prefix?: string): Promise<void> {
  const logger = createLogger({ service: 'devstack', level: 'warn' });
  const kafka = createKafkaClient({ brokers, credentials: credentialsOf(credentials, 'admin'), clientId: 'stormhook-devstack', logger });
  const topics = allTopics();
  const result = await ensureTopics(kafka, topics, prefix ? { prefix } : {});
  const rules = aclRules(prefix);
  await applyAcls(kafka, rules);
  log(`topics ready: ${topics.length} in the catalogue, ${result.created.length} created now; ${rules.length} ACL rules of the access table applied`);
}
