import { join } from 'node:path';
import { allTopics, type TopicSpec } from '@stormhook/kafka';
import type { GeneratedFile } from './generated-file.js';

/**
 * The Helm chart cannot import TypeScript, so it reads the topic catalogue from a JSON file rendered
 * from `@stormhook/kafka`'s TOPICS. The file is committed (a chart must be installable from the
 * repository alone) and the deploy checks fail when it no longer matches the catalogue.
 */
export const TOPICS_FILE = join('deploy', 'helm', 'stormhook', 'files', 'topics.json');

export interface ChartTopic {
  name: string;
  partitions: number;
  description: string;
  /** Kafka topic configs, as strings: Helm's fromJson turns numbers into floats (6.048e+08). */
  config: Record<string, string>;
}

export interface ChartTopicsDocument {
  generatedFrom: string;
  warning: string;
  topics: ChartTopic[];
}

export function chartTopics(topics: readonly TopicSpec[]): ChartTopic[] {
  return [...topics]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((topic) => ({
      name: topic.name,
      partitions: topic.partitions,
      description: topic.description,
      config: {
        'cleanup.policy': topic.cleanupPolicy,
        'retention.ms': String(topic.retentionMs),
      },
    }));
}

/** The file's exact text: stable order and formatting, so staleness is a plain string comparison. */
export function renderTopicsFile(topics: readonly TopicSpec[]): string {
  const document: ChartTopicsDocument = {
    generatedFrom: 'packages/kafka/src/topics.ts',
    warning: 'Generated: do not edit. Regenerate with `node tools/devstack/dist/deploy/cli.js topics`.',
    topics: chartTopics(topics),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

export const TOPICS_GENERATED: GeneratedFile = {
  path: TOPICS_FILE,
  source: 'packages/kafka/src/topics.ts',
  command: 'topics',
  render: () => renderTopicsFile(allTopics()),
};
