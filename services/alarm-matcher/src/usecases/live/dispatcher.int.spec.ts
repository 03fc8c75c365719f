import assert from 'node:assert/strict';
import { seeded } from '@stormhook/geometry/testing';
import { MongoClient, type Db } from 'mongodb';
import { testInfra, uniqueName } from '@stormhook/testing';
import type { Notification } from '../../payloads/notification.js';
import { ensureAlarmIndexes } from '../../persistence/collections.js';
import { MongoNotificationLedger } from '../../persistence/notification-ledger.js';
import { systemClock, type Clock } from '../../ports/clock.js';
import type { AlarmPublisher } from '../../ports/alarm-publisher.js';
import { RecordingPublisher } from '../../test-support/memory-ports.js';
import { NotificationDispatcher } from './dispatcher.js';

function notification(id: string): Notification {
  return {
    notificationId: id,
    addressee: { registrationId: `r-${id}`, accountId: 'a', kind: 'POINT', recipientId: 'x' },
    eventKind: 'LIGHTNING',
    phase: 'START',
    eventId: 'e',
    stage: 'strike',
    occurredAtMs: 0,
    payload: { id },
  };
}

/**
 * Batched claims on the real database (FerretDB here, where only unique inserts are atomic): several
 * dispatchers, as on several instances or a replay during a rebalance, race over the same
 * notifications in batches of their own.
 */
describe('NotificationDispatcher on the real database', function () {
  this.timeout(60_000);
  let client: MongoClient;
  let db: Db;

  before(async () => {
    client = new MongoClient(testInfra().mongoUrl);
    await client.connect();
    db = client.db(uniqueName('am_dispatch').replace(/-/g, '_'));
    await ensureAlarmIndexes(db);
  });

  after(async () => {
    await db?.dropDatabase();
    await client?.close();
  });

  it('publishes each of 1,000 notifications exactly once when four claimers race over all of them in batches', async () => {
    const ids = Array.from({ length: 1_000 }, (_, i) => `ntf_race_${i}`);
    const claimers = Array.from({ length: 4 }, () => {
      const publisher = new RecordingPublisher();
      const dispatcher = new NotificationDispatcher(new MongoNotificationLedger(db), publisher, systemClock, undefined, {
        maxItems: 200,
        maxDelayMs: 2,
        maxConcurrentFlushes: 2,
      });
      return { publisher, dispatcher };
    });
    const random = seeded(7);
    await Promise.all(
      claimers.map(async ({ dispatcher }) => {
        // Each claimer brings every notification, in its own order and its own chunks (records in flight).
        const order = [...ids].sort(() => random() - 0.5);
        const chunks: string[][] = [];
        for (let i = 0; i < order.length; i += 37) chunks.push(order.slice(i, i + 37));
        await Promise.all(chunks.map((chunk) => dispatcher.dispatch(chunk.map(notification))));
      }),
    );
    await Promise.all(claimers.map(({ dispatcher }) => dispatcher.drain()));
    const sent = claimers.flatMap(({ publisher }) => publisher.sent.map((n) => n.notificationId));
    assert.equal(sent.length, 1_000, 'no notification published twice');
    assert.deepEqual([...new Set(sent)].sort(), [...ids].sort(), 'none lost');
    assert.ok(
      claimers.every(({ publisher }) => publisher.calls.length < 40),
      `batched: ${claimers.map(({ publisher }) => publisher.calls.length).join(', ')} publishes for 1,000 notifications`,
    );
    // A replay after the race: everything is published and marked, nothing goes out again.
    const replay = new NotificationDispatcher(new MongoNotificationLedger(db), new RecordingPublisher(), systemClock);
    assert.equal((await replay.dispatch(ids.slice(0, 100).map(notification))).length, 0);
  });
  it('publishes a notification taken over from a dead claimer once, though its taker is still publishing when the next replay comes', async () => {
    const at = (ms: number): Clock => ({ now: () => ms });
    const ledger = new MongoNotificationLedger(db, 5_000);
    const ids = ['ntf_takeover_1', 'ntf_takeover_2'];
    // The first claimer claimed at 10 s and died before publishing.
    await ledger.claim(
      ids.map((id) => ({ notificationId: id, registrationId: `r-${id}`, eventId: 'e', stage: 'strike' })),
      10_000,
      'bat_dead_1',
    );
    // A replay at 16 s takes them over; its broker is slow, the publish hangs.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let publishing!: () => void;
    const started = new Promise<void>((resolve) => (publishing = resolve));
    const slowSent: Notification[] = [];
    const slow: AlarmPublisher = {
      publish: async (notifications) => {
        publishing();
        await gate;
        slowSent.push(...notifications);
      },
    };
    const taker = new NotificationDispatcher(ledger, slow, at(16_000), undefined, { maxItems: 10, maxDelayMs: 1, maxConcurrentFlushes: 1 });
    const taking = taker.dispatch(ids.map(notification));
    await started;
    // Another replay (a rebalance) 4.5 s after the takeover, in the next stale period, while the publish hangs.
    const other = new RecordingPublisher();
    const replay = new NotificationDispatcher(ledger, other, at(20_500), undefined, { maxItems: 10, maxDelayMs: 1, maxConcurrentFlushes: 1 });
    await replay.dispatch(ids.map(notification));
    release();
    await taking;
    await Promise.all([taker.drain(), replay.drain()]);
    assert.deepEqual(slowSent.map((n) => n.notificationId).sort(), ids);
    assert.deepEqual(
      other.sent.map((n) => n.notificationId),
      [],
      'published twice',
    );
  });
});
