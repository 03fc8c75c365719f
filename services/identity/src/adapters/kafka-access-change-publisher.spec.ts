import assert from 'node:assert/strict';
import { EventTypes, TopicNames, type EventToPublish, type TopicName } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { identityV1 } from '@stormhook/proto';
import { KafkaAccessChangePublisher } from './kafka-access-change-publisher.js';

describe('user change events for the gateways', () => {
  const at = new Date('2025-06-01T12:00:00Z');
  const clock = { now: () => at };

  function recordingLogger() {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({
      service: 'identity-test',
      level: 'debug',
      destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
    return { logger, lines };
  }

  it('publishes stormhook.identity.v1.UserChanged on identity.user-changed.v1, keyed by user', async () => {
    const sent: Array<{ topic: TopicName; events: readonly EventToPublish[] }> = [];
    const { logger } = recordingLogger();
    const publisher = new KafkaAccessChangePublisher(
      { publish: async (topic, events) => (sent.push({ topic, events }), { eventIds: ['evt_1'] }) },
      clock,
      logger,
    );
    await publisher.changed('u1', 'API_KEY_REVOKED', 'k1');
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.topic, TopicNames.UserChanged);
    const event = sent[0]?.events[0];
    assert.equal(event?.key, 'u1');
    assert.equal(event?.eventType, EventTypes.UserChanged);
    assert.deepEqual(identityV1.UserChanged.decode(event!.value), { userId: 'u1', change: 'API_KEY_REVOKED', apiKeyId: 'k1', changedAtEpochMs: at.getTime() });
  });

  it('logs a failed publish as an error naming the user and the bound, and does not fail the change', async () => {
    const { logger, lines } = recordingLogger();
    const publisher = new KafkaAccessChangePublisher(
      {
        publish: async () => {
          throw new Error('broker unavailable');
        },
      },
      clock,
      logger,
    );
    await publisher.changed('u2', 'ROLE_OR_STATUS');
    const error = lines.find((l) => l['level'] === 50 || l['level'] === 'error');
    assert.ok(error, JSON.stringify(lines));
    assert.equal(error['userId'], 'u2');
    assert.equal(error['change'], 'ROLE_OR_STATUS');
    assert.match(String(error['msg']), /ACCESS_SNAPSHOT_TTL_MS/);
  });
});
