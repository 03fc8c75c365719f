export { EventTypes, type EventType } from './event-types.js';
export {
  TOPICS,
  TopicNames,
  DEAD_LETTER_TOPIC,
  allTopics,
  channelSpec,
  isChannelName,
  isTopicName,
  topicSpec,
  type ChannelName,
  type ChannelSpec,
  type CleanupPolicy,
  type MessageOf,
  type TopicName,
  type TopicSettings,
  type TopicSpec,
} from './topics.js';
export { topicNamer, type TopicNamer } from './topic-namer.js';
export {
  EVENT_HEADERS,
  DEAD_LETTER_HEADERS,
  PROTOBUF_CONTENT_TYPE,
  headersAsText,
  parseEventHeaders,
  type EventHeaders,
  type HeaderParseResult,
} from './headers.js';
export { newEventId } from './ids.js';
export { Outcomes, DEFAULT_RETRY_POLICY, backoffDelay, nextStep, type NextStep, type Outcome, type RetryPolicy } from './outcome.js';
export type { ConsumedRecord } from './record.js';
export { createKafkaClient, type KafkaClientOptions } from './client.js';
export { ensureTopics, deleteTopics, kafkaHealth, type EnsureTopicsOptions, type EnsureTopicsResult, type KafkaHealth, type TopicOptions } from './admin.js';
export {
  createPublisher,
  DEFAULT_PUBLISH_BATCHING,
  type PublishBatching,
  type EventToPublish,
  type PublishResult,
  type Publisher,
  type PublisherOptions,
  type RawRecord,
} from './publisher.js';
export type { Handler } from './record-processor.js';
export type { BatchHandler } from './batch-processor.js';
export { createConsumer, DEFAULT_CONSUMER_TUNING, type ConsumerExit, type ConsumerOptions, type ConsumerTuning, type EventConsumer } from './consumer.js';
export { DEFAULT_COMMIT_POLICY, type CommitPolicy } from './offset-commits.js';
export { consumerGroupId } from './consumer-group.js';
export { deleteReplicaGroups, replicaGroup, replicaName } from './replica-group.js';
export { decodeChannelRecord, SUPPORTED_SCHEMA_VERSION, type ChannelDecodeResult, type ChannelRecord } from './channel-record.js';
export { channelHandler, channelsOf, type ChannelHandler, type ChannelHandlerOptions, type ChannelHandlers } from './channel-handler.js';
export { createChannelConsumer, type ChannelConsumerOptions } from './channel-consumer.js';
export { channelEvents, publishOn, type ChannelEvent } from './channel-events.js';
export { messageOpeningKey, messageSealingKey, openParams, sealParams, type OpenedParams } from './sealed-params.js';
export { credentialsOf, readCredentialSet, type KafkaConnection, type KafkaCredentialSet, type KafkaCredentials, type KafkaTls } from './credentials.js';
export { kafkaConnectionOf, type KafkaConnectionConfig } from './connection-env.js';
export {
  GROUP_ACCESS,
  KAFKA_ADMIN_PRINCIPAL,
  KAFKA_PRINCIPALS,
  TOPIC_ACCESS,
  aclRuleText,
  aclRules,
  consumedBy,
  isKafkaPrincipal,
  producedBy,
  type AclRule,
  type KafkaPrincipal,
  type TopicAccess,
} from './topic-access.js';
export { applyAcls } from './acls.js';
