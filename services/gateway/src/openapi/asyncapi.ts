import { EVENT_HEADERS, PROTOBUF_CONTENT_TYPE, TOPICS, type TopicName } from '@stormhook/kafka';
import { root } from '@stormhook/proto';
import type { JsonSchema } from '../schemas/json-schema.js';

export type AsyncApiDocument = Record<string, unknown> & {
  asyncapi: string;
  channels: Record<string, Record<string, unknown>>;
  components: { messages: Record<string, Record<string, unknown>>; schemas: Record<string, JsonSchema> };
};

/** Where the feed contract is written in words: keys, limits, units, the update rules. */
const FEEDS_MD = 'proto/stormhook/feed/v1/FEEDS.md';
/** Kafka bindings of AsyncAPI 3.0 (github.com/asyncapi/bindings, kafka). */
const KAFKA_BINDING_VERSION = '0.5.0';

/**
 * The topics the document describes: the public feed (what data publishers write) and the normalised
 * weather topics built from it. The platform's internal topics (alarm.*, identity.*, ...) are no
 * contract with anyone outside and stay out.
 */
const DOCUMENTED_PREFIXES = ['feed.', 'weather.'] as const;

function documentedTopics(): TopicName[] {
  return (Object.keys(TOPICS) as TopicName[]).filter((name) => DOCUMENTED_PREFIXES.some((prefix) => name.startsWith(prefix)));
}

type ProtoType = ReturnType<typeof root.lookupType>;
type ProtoField = ProtoType['fieldsArray'][number];

const SCALARS: Readonly<Record<string, JsonSchema>> = {
  double: { type: 'number', format: 'double' },
  float: { type: 'number', format: 'float' },
  int32: { type: 'integer', format: 'int32' },
  sint32: { type: 'integer', format: 'int32' },
  sfixed32: { type: 'integer', format: 'int32' },
  uint32: { type: 'integer', format: 'int32', minimum: 0 },
  fixed32: { type: 'integer', format: 'int32', minimum: 0 },
  int64: { type: 'integer', format: 'int64' },
  sint64: { type: 'integer', format: 'int64' },
  sfixed64: { type: 'integer', format: 'int64' },
  uint64: { type: 'integer', format: 'int64', minimum: 0 },
  fixed64: { type: 'integer', format: 'int64', minimum: 0 },
  bool: { type: 'boolean' },
  string: { type: 'string' },
  bytes: { type: 'string', contentEncoding: 'base64' },
};

/**
 * JSON Schemas of protobuf messages and enums, read from the descriptors of @stormhook/proto (the
 * code generated from proto/), so the document cannot describe a field the wire does not have.
 * Field names are protobuf's JSON names (lowerCamelCase); the wire encoding stays binary protobuf.
 */
class ProtoSchemas {
  readonly schemas: Record<string, JsonSchema> = {};

  /** A `$ref` to the component of the fully qualified message `typeName`, adding it and what it uses. */
  message(typeName: string): JsonSchema {
    const type = root.lookupType(typeName);
    const name = fullName(type.fullName);
    if (!(name in this.schemas)) {
      this.schemas[name] = {}; // placeholder first: a message that contains itself must not recurse forever
      const properties = Object.fromEntries(type.fieldsArray.map((field) => [field.name, this.field(field)]));
      this.schemas[name] = { type: 'object', title: name, 'x-protobuf-type': name, properties };
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  private field(field: ProtoField): JsonSchema {
    const value = this.fieldValue(field);
    const described = field.partOf ? { ...value, description: `one of the oneof \`${field.partOf.name}\`` } : value;
    if (field.map) {
      return { type: 'object', additionalProperties: described, 'x-protobuf-key-type': (field as ProtoField & { keyType: string }).keyType };
    }
    return field.repeated ? { type: 'array', items: described } : described;
  }

  private fieldValue(field: ProtoField): JsonSchema {
    const scalar = SCALARS[field.type];
    if (scalar) return scalar;
    const resolved = field.resolvedType;
    if (resolved === null) throw new Error(`field ${field.fullName} has the unresolved type ${field.type}`);
    if ('values' in resolved) {
      const name = fullName(resolved.fullName);
      this.schemas[name] ??= { type: 'string', title: name, 'x-protobuf-type': name, enum: Object.keys(resolved.values) };
      return { $ref: `#/components/schemas/${name}` };
    }
    return this.message(resolved.fullName);
  }
}

/** protobufjs writes fully qualified names with a leading dot. */
const fullName = (name: string): string => name.replace(/^\./, '');

/**
 * The headers of every record (@stormhook/kafka headers.ts). content-type is required of publishers
 * by the feed contract although the parser falls back to protobuf when it is missing: the document
 * states the contract, not the leniency.
 */
function headersSchema(eventType: string): JsonSchema {
  return {
    type: 'object',
    properties: {
      [EVENT_HEADERS.eventType]: { type: 'string', const: eventType, description: 'the fully qualified protobuf message name of the value' },
      [EVENT_HEADERS.eventId]: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description: 'unique to this record; for tracing and replays, not for de-duplication',
      },
      [EVENT_HEADERS.contentType]: { type: 'string', const: PROTOBUF_CONTENT_TYPE, description: 'protobuf binary encoding' },
      [EVENT_HEADERS.schemaVersion]: { type: 'string', const: '1', description: 'optional, default 1' },
      [EVENT_HEADERS.traceparent]: { type: 'string', description: 'W3C trace context, optional' },
      [EVENT_HEADERS.tracestate]: { type: 'string', description: 'W3C trace context, optional' },
    },
    required: [EVENT_HEADERS.eventType, EVENT_HEADERS.eventId, EVENT_HEADERS.contentType],
  };
}

/** The weather events' own field their records are keyed by (proto/stormhook/weather/v1/common.proto, AREA KEY). */
const AREA_KEY_FIELD = 'areaKey';

function keyDescription(topic: TopicName, eventType: string): string {
  if (topic.startsWith('feed.')) {
    return `the record's source id, so every version of one event stays in one partition, in order; per feed in ${FEEDS_MD} (Topics)`;
  }
  if (root.lookupType(eventType).fields[AREA_KEY_FIELD] === undefined) {
    throw new Error(`${eventType} on ${topic} has no ${AREA_KEY_FIELD} field to be keyed by`);
  }
  return `the event's \`${AREA_KEY_FIELD}\` field, so alarm matching scales out by area and one area's events stay in order`;
}

/** Stormhook reads the feed topics (publishers send to them) and writes the weather topics. */
const actionOf = (topic: TopicName): 'receive' | 'send' => (topic.startsWith('feed.') ? 'receive' : 'send');

/**
 * The AsyncAPI 3.0 document of the feed and weather topics, generated from the topic catalogue
 * (@stormhook/kafka) and the protobuf descriptors (@stormhook/proto): one channel per topic, one
 * message per event type, its payload the message's fields. Served at /v1/asyncapi.json.
 */
export function buildAsyncApiDocument(): AsyncApiDocument {
  const protos = new ProtoSchemas();
  const channels: Record<string, Record<string, unknown>> = {};
  const operations: Record<string, Record<string, unknown>> = {};
  const messages: Record<string, Record<string, unknown>> = {};
  for (const topic of documentedTopics()) {
    const settings = TOPICS[topic];
    const channelMessages: Record<string, unknown> = {};
    for (const eventType of settings.eventTypes) {
      messages[eventType] ??= {
        name: eventType,
        title: eventType.split('.').pop(),
        summary: `protobuf message ${eventType}`,
        contentType: PROTOBUF_CONTENT_TYPE,
        headers: headersSchema(eventType),
        payload: protos.message(eventType),
        bindings: { kafka: { key: { type: 'string', description: keyDescription(topic, eventType) }, bindingVersion: KAFKA_BINDING_VERSION } },
      };
      channelMessages[eventType] = { $ref: `#/components/messages/${eventType}` };
    }
    channels[topic] = {
      address: topic,
      title: topic,
      description: `${settings.description} A deployment that shares a cluster may put a prefix in front (STORMHOOK_TOPIC_PREFIX=staging gives staging.${topic}).`,
      messages: channelMessages,
      bindings: {
        kafka: {
          topic,
          partitions: settings.partitions,
          topicConfiguration: { 'cleanup.policy': [settings.cleanupPolicy], 'retention.ms': settings.retentionMs },
          bindingVersion: KAFKA_BINDING_VERSION,
        },
      },
    };
    const action = actionOf(topic);
    operations[`${action}.${topic}`] = {
      action,
      title: action === 'receive' ? `Publish to ${topic}` : `Consume ${topic}`,
      summary: action === 'receive' ? 'data publishers write here; Stormhook ingest validates and reads it' : 'Stormhook writes the validated events here',
      channel: { $ref: `#/channels/${topic}` },
      messages: Object.keys(channelMessages).map((name) => ({ $ref: `#/channels/${topic}/messages/${name}` })),
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Stormhook feed topics',
      version: '1.0.0',
      description:
        'The Kafka topics of the public feed contract (data publishers write radar, lightning, storm-cell and forecast ' +
        'records; Stormhook reads them) and the normalised weather topics Stormhook builds from them. Record values are ' +
        `binary protobuf (the payload schemas list each message's fields by their JSON names); keys, headers, limits, ` +
        `units and the update rules are in ${FEEDS_MD}. The HTTP API is described by /v1/openapi.json.`,
    },
    defaultContentType: PROTOBUF_CONTENT_TYPE,
    servers: { local: { host: '127.0.0.1:9092', protocol: 'kafka', description: 'the local stack (npm start)' } },
    channels,
    operations,
    components: { messages, schemas: protos.schemas },
  };
}
