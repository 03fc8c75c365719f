import assert from 'node:assert/strict';
import type { AccountStats } from '../domain/webhook-stats.js';
import { startHarness, type NotifierHarness } from '../test-support/harness.js';
import { COLLECTIONS } from './collections.js';
import { MongoWebhookStatsStore } from './mongo-webhook-stats-store.js';
import { WriteGate } from './write-gate.js';

const statsOf = (accountId: string, opened: number): AccountStats => ({
  accountId,
  minutes: [],
  hours: [],
  opened,
  closed: 0,
  lastSuccessAt: null,
  failureRun: null,
  nextRetryAt: null,
  recoveries: {},
});

/**
 * The statistics flush shares SQLite's single writer with the deliveries: it must take its turn at
 * the process's write gate, in small writes, or a city's worth of accounts stalls every delivery.
 */
describe('MongoWebhookStatsStore (FerretDB)', function () {
  this.timeout(60_000);
  let h: NotifierHarness;

  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
  });

  it('writes a large round in chunks that each wait for the gate, letting other writes in between', async () => {
    const gate = new WriteGate(1);
    const store = new MongoWebhookStatsStore(h.mongo.db, { gate, replacesPerWrite: 25 });
    const accounts = Array.from({ length: 1_234 }, (_, i) => statsOf(`acct-chunks-${i}`, i + 1));

    // Another writer holds the gate: the save must not write anything until it lets go.
    let release!: () => void;
    const held = gate.run(() => new Promise<void>((resolve) => (release = resolve)));
    const saving = store.save('writer-chunks', accounts);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(await store.load('acct-chunks-0', ['writer-chunks']), [], 'nothing written while the gate is held');

    // Once released, a write queued behind the save's first chunk runs before the save ends.
    release();
    await held;
    const written = () => h.mongo.db.collection(COLLECTIONS.webhookStats).countDocuments({ writerId: 'writer-chunks' });
    const seenBetween = gate.run(written);
    await saving;
    const between = await seenBetween;
    assert.ok(between > 0 && between < accounts.length, `a write queued during the save ran between its chunks (saw ${between} written)`);

    for (const i of [0, 24, 25, 617, 1_233]) {
      const [stored] = await store.load(`acct-chunks-${i}`, ['writer-chunks']);
      assert.equal(stored?.opened, i + 1, `account ${i} written`);
    }
    assert.equal(await written(), accounts.length);
  });

  it('refuses a chunk size that is not a positive integer', () => {
    assert.throws(() => new MongoWebhookStatsStore(h.mongo.db, { replacesPerWrite: 0 }), /replacesPerWrite must be a positive integer/);
  });
});
