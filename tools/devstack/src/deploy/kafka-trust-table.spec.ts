import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../paths.js';
import { kafkaTrustTable } from './kafka-trust-table.js';

describe("README's Kafka trust model", () => {
  it('is the access table of packages/kafka/src/topic-access.ts', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const table = kafkaTrustTable();
    assert.ok(readme.includes(table), `README.md lacks the current table; paste:\n${table}`);
  });
});
