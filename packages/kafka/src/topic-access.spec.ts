import assert from 'node:assert/strict';
import { aclRules, aclRuleText, consumedBy, KAFKA_PRINCIPALS, producedBy } from './topic-access.js';
import { TopicNames } from './topics.js';

describe('the access table', () => {
  it('lets the publisher write feed.* and nothing else, and read nothing', () => {
    assert.ok(producedBy('publisher').every((topic) => topic.startsWith('feed.')));
    assert.equal(producedBy('publisher').length, 4);
    assert.deepEqual(consumedBy('publisher'), []);
  });

  it('keeps reset tokens and forged alarms away: only identity and the notifier touch message requests, only the matcher writes alarms', () => {
    const writers = KAFKA_PRINCIPALS.filter((p) => producedBy(p).includes(TopicNames.AlarmTriggered));
    const readers = KAFKA_PRINCIPALS.filter((p) => consumedBy(p).includes(TopicNames.MessageRequested));
    assert.deepEqual(writers, ['alarm-matcher']);
    assert.deepEqual(readers, ['notifier']);
  });

  it('renders rules under a prefix: literal prefixed topics, prefixed groups, sorted and without duplicates', () => {
    const rules = aclRules('t-1').map(aclRuleText);
    assert.ok(rules.includes('User:ingest topic literal t-1.feed.lightning.v1 read'));
    assert.ok(rules.includes('User:ingest group prefixed t-1.stormhook-ingest read'));
    assert.ok(!rules.some((rule) => rule.includes(' alarm.triggered')));
    assert.deepEqual(
      rules,
      [...rules].sort((a, b) => a.localeCompare(b)),
    );
    assert.equal(new Set(rules).size, rules.length);
  });
});
