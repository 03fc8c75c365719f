import assert from 'node:assert/strict';
import { consumedBy, producedBy, TopicNames } from '@stormhook/kafka';
import { repoRoot } from '../paths.js';
import { checkKafkaUsage, codeKafkaUsage } from './kafka-usage.js';

describe('Kafka usage of the code against the access table', () => {
  it('finds what each service produces and consumes, and it is exactly the table', () => {
    const result = checkKafkaUsage(repoRoot);
    assert.equal(result.ok, true, result.detail);
  });

  it('reads real usage, not nothing: ingest turns feeds into weather, the notifier reads alarms', () => {
    const usage = codeKafkaUsage(repoRoot);
    assert.deepEqual([...usage.get('ingest')!.consumes].sort(), [...consumedBy('ingest')].sort());
    assert.ok(usage.get('ingest')!.produces.has(TopicNames.WeatherLightning));
    assert.ok(usage.get('notifier')!.consumes.has(TopicNames.AlarmTriggered));
    assert.ok(usage.get('publisher')!.produces.has(TopicNames.FeedForecast));
    assert.deepEqual(producedBy('publisher'), [TopicNames.FeedPrecipitation, TopicNames.FeedLightning, TopicNames.FeedThunderstorm, TopicNames.FeedForecast]);
  });
});
