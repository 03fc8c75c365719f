import { TOPICS, TopicNames, type TopicName } from './topics.js';
import { topicNamer } from './topic-namer.js';

/**
 * THE table of who may use the bus: every Kafka principal, the topics it produces and consumes, and
 * the consumer groups it may join. ACLs on the embedded broker, the chart's ACL job, the README's
 * trust model and the deploy check are all derived from it; a principal has no right that is not here.
 *
 * Keyed by the topic catalogue: adding a topic to `TOPICS` fails to compile until it has a row, so a
 * new topic cannot be born readable by everyone.
 */

/**
 * Every service is its own principal (geo too: it connects for its health answer but is granted
 * nothing); `publisher` is an outside data publisher.
 */
export const KAFKA_PRINCIPALS = ['gateway', 'identity', 'geo', 'ingest', 'query', 'alarm-matcher', 'notifier', 'publisher'] as const;
export type KafkaPrincipal = (typeof KAFKA_PRINCIPALS)[number];

/** The broker's super user: inter-broker traffic, topic creation and ACLs. No service runs as it. */
export const KAFKA_ADMIN_PRINCIPAL = 'admin';

export interface TopicAccess {
  producers: readonly KafkaPrincipal[];
  consumers: readonly KafkaPrincipal[];
}

// Every consumer writes its poison records to the dead-letter topic; nobody consumes it (humans read it as admin).
const DEAD_LETTER_WRITERS: readonly KafkaPrincipal[] = ['gateway', 'ingest', 'query', 'alarm-matcher', 'notifier'];

export const TOPIC_ACCESS = {
  [TopicNames.FeedPrecipitation]: { producers: ['publisher'], consumers: ['ingest'] },
  [TopicNames.FeedLightning]: { producers: ['publisher'], consumers: ['ingest'] },
  [TopicNames.FeedThunderstorm]: { producers: ['publisher'], consumers: ['ingest'] },
  [TopicNames.FeedForecast]: { producers: ['publisher'], consumers: ['ingest'] },
  // The gateway reads the three the live stream carries (GET /v1/stream, issue 25), one group per replica.
  [TopicNames.WeatherPrecipitation]: { producers: ['ingest'], consumers: ['gateway', 'query', 'alarm-matcher'] },
  // query keeps every weather record in its history (issue 24), strikes included.
  [TopicNames.WeatherLightning]: { producers: ['ingest'], consumers: ['gateway', 'query', 'alarm-matcher'] },
  [TopicNames.WeatherThunderstorm]: { producers: ['ingest'], consumers: ['gateway', 'query', 'alarm-matcher'] },
  [TopicNames.WeatherForecast]: { producers: ['ingest'], consumers: ['query', 'alarm-matcher'] },
  [TopicNames.RegistrationChanged]: { producers: ['alarm-matcher'], consumers: ['alarm-matcher'] },
  [TopicNames.AlarmTriggered]: { producers: ['alarm-matcher'], consumers: ['notifier'] },
  [TopicNames.DeliveryFailed]: { producers: ['notifier'], consumers: [] },
  // The alarm-matcher suspends registrations of accounts no longer entitled (issue 23 item 3).
  [TopicNames.UserChanged]: { producers: ['identity'], consumers: ['gateway', 'alarm-matcher'] },
  [TopicNames.MessageRequested]: { producers: ['identity', 'notifier'], consumers: ['notifier'] },
  [TopicNames.DeadLetter]: { producers: DEAD_LETTER_WRITERS, consumers: [] },
} as const satisfies Record<TopicName, TopicAccess>;

/**
 * The consumer groups each principal may join, as name prefixes (before the stack's topic prefix):
 * the services' default group names (`*_CONSUMER_GROUP`), under which their per-instance broadcast
 * groups live too. A renamed group needs its row changed here.
 */
export const GROUP_ACCESS = {
  gateway: ['gateway.user-changes.', 'gateway.weather-stream.'],
  identity: [],
  geo: [],
  ingest: ['stormhook-ingest'],
  query: ['stormhook-query'],
  'alarm-matcher': ['stormhook-alarm-matcher'],
  notifier: ['stormhook-notifier'],
  publisher: [],
} as const satisfies Record<KafkaPrincipal, readonly string[]>;

export function isKafkaPrincipal(name: string): name is KafkaPrincipal {
  return (KAFKA_PRINCIPALS as readonly string[]).includes(name);
}

/** The topics `principal` produces to, in catalogue order. */
export function producedBy(principal: KafkaPrincipal): TopicName[] {
  return catalogue().filter((topic) => (TOPIC_ACCESS[topic].producers as readonly string[]).includes(principal));
}

/** The topics `principal` consumes, in catalogue order. */
export function consumedBy(principal: KafkaPrincipal): TopicName[] {
  return catalogue().filter((topic) => (TOPIC_ACCESS[topic].consumers as readonly string[]).includes(principal));
}

function catalogue(): TopicName[] {
  return Object.keys(TOPICS) as TopicName[];
}

export type AclResource = 'topic' | 'group';
export type AclPattern = 'literal' | 'prefixed';
export type AclOperation = 'read' | 'write' | 'describe' | 'delete';

/** One ALLOW rule, in Kafka's terms; there are no DENY rules: what is not allowed is refused. */
export interface AclRule {
  principal: KafkaPrincipal;
  resource: AclResource;
  pattern: AclPattern;
  name: string;
  operation: AclOperation;
}

/**
 * The ALLOW rules of the table for a stack whose topics and groups carry `prefix` (none in
 * production): WRITE per produced topic, READ per consumed topic (both imply DESCRIBE, which
 * start-up topic checks need), and READ, DESCRIBE and DELETE on the group prefixes (services delete
 * their broadcast groups when they stop). Sorted, so two renderings compare as text.
 */
export function aclRules(prefix?: string): AclRule[] {
  const namer = topicNamer(prefix);
  const rules: AclRule[] = [];
  for (const topic of catalogue()) {
    const access: TopicAccess = TOPIC_ACCESS[topic];
    for (const principal of access.producers) rules.push({ principal, resource: 'topic', pattern: 'literal', name: namer.physical(topic), operation: 'write' });
    for (const principal of access.consumers) rules.push({ principal, resource: 'topic', pattern: 'literal', name: namer.physical(topic), operation: 'read' });
  }
  for (const principal of KAFKA_PRINCIPALS) {
    for (const group of GROUP_ACCESS[principal] as readonly string[]) {
      const name = prefix ? `${prefix}.${group}` : group;
      for (const operation of ['read', 'describe', 'delete'] as const) rules.push({ principal, resource: 'group', pattern: 'prefixed', name, operation });
    }
  }
  return rules.sort((a, b) => aclRuleText(a).localeCompare(aclRuleText(b)));
}

/** One line per rule (`User:ingest topic literal feed.lightning.v1 read`): the form the chart renders and the check compares. */
export function aclRuleText(rule: AclRule): string {
  return `User:${rule.principal} ${rule.resource} ${rule.pattern} ${rule.name} ${rule.operation}`;
}
