import { join } from 'node:path';
import { aclRules, KAFKA_PRINCIPALS } from '@stormhook/kafka';
import type { GeneratedFile } from './generated-file.js';

/**
 * The chart cannot import TypeScript, so it reads the access table's ACL rules from a JSON file
 * rendered from `@stormhook/kafka` (topic-access.ts), without a topic prefix (the chart adds
 * global.topicPrefix). Committed, and the deploy checks fail when it no longer matches the table.
 */
export const KAFKA_ACLS_FILE = join('deploy', 'helm', 'stormhook', 'files', 'kafka-acls.json');

export function renderKafkaAclsFile(): string {
  const document = {
    generatedFrom: 'packages/kafka/src/topic-access.ts',
    warning: 'Generated: do not edit. Regenerate with `node tools/devstack/dist/deploy/cli.js kafka-acls`.',
    principals: [...KAFKA_PRINCIPALS],
    rules: aclRules().map(({ principal, resource, pattern, name, operation }) => ({ principal, resource, pattern, name, operation })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

export const KAFKA_ACLS_GENERATED: GeneratedFile = {
  path: KAFKA_ACLS_FILE,
  source: 'packages/kafka/src/topic-access.ts',
  command: 'kafka-acls',
  render: renderKafkaAclsFile,
};
