import { isTopicName, type TopicName } from './topics.js';

/**
 * Maps catalogue names to the names on the broker. A prefix isolates a test or a parallel stack on a
 * shared broker: with prefix `t-123`, `alarm.triggered.v1` lives in `t-123.alarm.triggered.v1`.
 * Every API of this package that names a topic takes the same `prefix` option and goes through here.
 */
export interface TopicNamer {
  readonly prefix: string | undefined;
  /** The topic name on the broker. */
  physical(name: TopicName): string;
  /** The catalogue name of a broker topic, or undefined if it is not ours under this prefix. */
  logical(physical: string): TopicName | undefined;
}

// Kafka allows [a-zA-Z0-9._-] and 249 characters; leave room for the longest catalogue name.
const PREFIX_PATTERN = /^[a-zA-Z0-9._-]{1,180}$/;

export function topicNamer(prefix?: string): TopicNamer {
  if (prefix !== undefined && !PREFIX_PATTERN.test(prefix)) {
    throw new Error(`invalid topic prefix "${prefix}": use 1-180 characters of [a-zA-Z0-9._-]`);
  }
  const head = prefix === undefined ? '' : `${prefix}.`;
  return {
    prefix,
    physical: (name) => `${head}${name}`,
    logical: (physical) => {
      if (!physical.startsWith(head)) return undefined;
      const name = physical.slice(head.length);
      return isTopicName(name) ? name : undefined;
    },
  };
}
