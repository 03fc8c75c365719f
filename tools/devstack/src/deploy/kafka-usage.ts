import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { consumedBy, DEAD_LETTER_TOPIC, isTopicName, KAFKA_PRINCIPALS, producedBy, TopicNames, type KafkaPrincipal, type TopicName } from '@stormhook/kafka';
import type { StepResult } from './chart-checks.js';

/** Tools of a service's folder that are not the service: they run as `publisher` or the super user. */
const NOT_THE_SERVICE = new Set(['test-support', 'bench', 'sim', 'open-meteo']);
/** The data publishers' code inside ingest's folder (the feed simulator and the Open-Meteo adapter). */
const PUBLISHER_DIRS = [join('services', 'ingest', 'src', 'sim'), join('services', 'ingest', 'src', 'open-meteo')];

// A topic as code names it: a catalogue constant, or ingest's FEED_ROUTES.<kind>.feed|weather.
const TOPIC_EXPR = String.raw`(TopicNames\.\w+|FEED_ROUTES\.\w+\.(?:feed|weather))`;
const PUBLISH = new RegExp(String.raw`publishOn\(\s*[\w.]+,\s*${TOPIC_EXPR}`, 'g');
// A channel handler map's key with a function for its value (an AsyncAPI example's object value is not one).
const HANDLER = new RegExp(String.raw`\[${TOPIC_EXPR}\]\s*:\s*(?![\s{])`, 'g');

export interface KafkaUsage {
  produces: Set<TopicName>;
  consumes: Set<TopicName>;
}

function topicOf(expression: string): TopicName {
  const route = /^FEED_ROUTES\.(\w+)\.(feed|weather)$/.exec(expression);
  const name = route ? `${route[2]}.${route[1]}.v1` : TopicNames[expression.slice('TopicNames.'.length) as keyof typeof TopicNames];
  if (!name || !isTopicName(name)) throw new Error(`${expression} names no topic of the catalogue`);
  return name;
}

function sourceFiles(dir: string, skip: ReadonlySet<string>): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return skip.has(name) ? [] : sourceFiles(path, skip);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

function usageOf(files: readonly string[]): KafkaUsage {
  const usage: KafkaUsage = { produces: new Set(), consumes: new Set() };
  for (const text of files.map((file) => readFileSync(file, 'utf8'))) {
    for (const match of text.matchAll(PUBLISH)) usage.produces.add(topicOf(match[1]!));
    for (const match of text.matchAll(HANDLER)) usage.consumes.add(topicOf(match[1]!));
  }
  // Every consumer sends its poison records to the dead-letter topic (packages/kafka's consumer does).
  if (usage.consumes.size > 0) usage.produces.add(DEAD_LETTER_TOPIC);
  return usage;
}

/**
 * What each principal's code produces and consumes, read from the source: `publishOn(<publisher>,
 * <topic>` and channel handler maps `[<topic>]: handler`. A service's folder is its principal; the
 * feed simulator and the Open-Meteo adapter in ingest's folder are the `publisher`.
 */
export function codeKafkaUsage(root: string): Map<KafkaPrincipal, KafkaUsage> {
  const usage = new Map<KafkaPrincipal, KafkaUsage>();
  for (const principal of KAFKA_PRINCIPALS) {
    if (principal === 'publisher') continue;
    usage.set(principal, usageOf(sourceFiles(join(root, 'services', principal, 'src'), NOT_THE_SERVICE)));
  }
  usage.set('publisher', usageOf(PUBLISHER_DIRS.flatMap((dir) => sourceFiles(join(root, dir), new Set()))));
  return usage;
}

/**
 * The code uses the bus as the access table says: each service produces and consumes exactly its
 * rows (a right it does not use is a right an intruder could), and the publishers' code writes only
 * what the publisher may (the simulator picks its topics at run time, so it is checked by the broker).
 */
export function checkKafkaUsage(root: string): StepResult {
  const problems: string[] = [];
  for (const [principal, usage] of codeKafkaUsage(root)) {
    const table = { produces: new Set(producedBy(principal)), consumes: new Set(consumedBy(principal)) };
    for (const kind of ['produces', 'consumes'] as const) {
      for (const topic of usage[kind]) if (!table[kind].has(topic)) problems.push(`${principal} ${kind} ${topic} in code, not in the table`);
      if (principal === 'publisher') continue;
      for (const topic of table[kind]) if (!usage[kind].has(topic)) problems.push(`${principal} ${kind} ${topic} in the table, not in code`);
    }
  }
  return {
    name: 'Kafka usage: each service produces and consumes exactly its rows of packages/kafka/src/topic-access.ts',
    ok: problems.length === 0,
    detail: problems.length === 0 ? `${KAFKA_PRINCIPALS.length} principals` : problems.join('; '),
  };
}
