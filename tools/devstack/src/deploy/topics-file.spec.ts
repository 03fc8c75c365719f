import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { allTopics, topicSpec } from '@stormhook/kafka';
import { generatedFileState } from './generated-file.js';
import { chartTopics, renderTopicsFile, TOPICS_FILE } from './topics-file.js';

describe('chart topic file', () => {
  it('renders every catalogue topic, sorted, with its partitions and configs as strings', () => {
    const topics = chartTopics([topicSpec('weather.lightning.v1'), topicSpec('alarm.triggered.v1')]);
    assert.deepEqual(
      topics.map((t) => t.name),
      ['alarm.triggered.v1', 'weather.lightning.v1'],
    );
    assert.deepEqual(topics[0], {
      name: 'alarm.triggered.v1',
      partitions: 6,
      description: topicSpec('alarm.triggered.v1').description,
      config: { 'cleanup.policy': 'delete', 'retention.ms': String(14 * 24 * 60 * 60 * 1000) },
    });
  });

  it('is the same text whatever order the catalogue lists its topics in', () => {
    const topics = allTopics();
    assert.equal(renderTopicsFile([...topics].reverse()), renderTopicsFile(topics));
    const parsed = JSON.parse(renderTopicsFile(topics)) as { topics: Array<{ name: string }> };
    assert.equal(parsed.topics.length, topics.length);
  });

  it('reports a missing, stale or fresh file', () => {
    const root = mkdtempSync(join(tmpdir(), 'stormhook-topics-'));
    try {
      const expected = renderTopicsFile(allTopics());
      assert.equal(generatedFileState(TOPICS_FILE, expected, root), 'missing');
      mkdirSync(dirname(join(root, TOPICS_FILE)), { recursive: true });
      writeFileSync(join(root, TOPICS_FILE), renderTopicsFile(allTopics().slice(1)));
      assert.equal(generatedFileState(TOPICS_FILE, expected, root), 'stale');
      writeFileSync(join(root, TOPICS_FILE), expected);
      assert.equal(generatedFileState(TOPICS_FILE, expected, root), 'fresh');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
