import assert from 'node:assert/strict';
import { createLogger } from '@stormhook/logger';
import { testInfra, uniqueName } from '@stormhook/testing';
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { QuotaMeter, type MeteredWindow } from './quota-meter.js';
import { ensureQuotaIndexes, QuotaStore } from './quota-store.js';

const logger = createLogger({ service: 'quota-it', level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('quota meter against the real database', function () {
  this.timeout(60_000);
  const dbName = uniqueName('gwquota').replace(/-/g, '_');
  const clients: MongoClient[] = [];
  const meters: QuotaMeter[] = [];

  /** One gateway instance's meter, on its own connection (as a separate process would have). */
  async function instance(syncIntervalMs: number, opts: { monitor?: (e: CommandStartedEvent) => void; started?: boolean } = {}) {
    const client = new MongoClient(testInfra().mongoUrl, { monitorCommands: true, appName: 'quota-it' });
    await client.connect();
    clients.push(client);
    if (opts.monitor) client.on('commandStarted', opts.monitor);
    const store = QuotaStore.over(client.db(dbName));
    const meter = new QuotaMeter(store, { syncIntervalMs, clockSkewMs: 2_000, logger });
    if (opts.started !== false) meter.start();
    meters.push(meter);
    return { meter, store };
  }

  let n = 0;
  const window = (limit: number): MeteredWindow => {
    const start = new Date(Date.UTC(2026, 10, 1));
    return { accountId: `acc-${++n}`, service: 'FORECAST', limit, start, end: new Date(start.getTime() + 400 * 86_400_000) };
  };

  before(async () => {
    const client = new MongoClient(testInfra().mongoUrl);
    await client.connect();
    await ensureQuotaIndexes(client.db(dbName));
    await client.close();
  });

  after(async () => {
    for (const m of meters) await m.stop().catch(() => undefined);
    await clients[0]
      ?.db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    for (const c of clients) await c.close();
  });

  it('two instances against one quota exceed the limit by no more than instances × rate × 2 × (interval + sync round)', async () => {
    const intervalMs = 100;
    const [a, b] = [await instance(intervalMs), await instance(intervalMs)];
    // The bound's "interval" is the time between a call being counted and the others seeing it: the
    // sync period plus how long a round (one write, one read) takes, which a loaded database stretches.
    let longestRoundMs = 0;
    for (const meter of [a.meter, b.meter]) {
      const sync = meter.sync.bind(meter);
      meter.sync = async () => {
        const roundStarted = performance.now();
        await sync();
        longestRoundMs = Math.max(longestRoundMs, performance.now() - roundStarted);
      };
    }
    const w = window(2_000);
    const served = [0, 0];
    const attempts = [0, 0];
    const started = performance.now();
    // Each instance takes 5 calls every 10 ms (about 500/s) for 3 s: the limit is reached after
    // about 2 s; without the sync each would serve the whole limit (an overshoot of 2,000).
    await Promise.all(
      [a.meter, b.meter].map(async (meter, i) => {
        while (performance.now() - started < 3_000) {
          for (let k = 0; k < 5; k++) {
            attempts[i]!++;
            if ((await meter.consume(w)).allowed) served[i]!++;
          }
          await sleep(10);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const ratePerInstance = Math.max(attempts[0]!, attempts[1]!) / seconds;
    const bound = 2 * ratePerInstance * 2 * ((intervalMs + longestRoundMs) / 1000);
    const total = served[0]! + served[1]!;
    assert.ok(total >= 2_000, `${total} served: the limit itself must be usable`);
    assert.ok(
      total - 2_000 <= bound,
      `served ${total}, overshoot ${total - 2_000} > bound ${bound.toFixed(0)} (${ratePerInstance.toFixed(0)} calls/s per instance, longest sync round ${longestRoundMs.toFixed(0)} ms)`,
    );
    // Once synced, both refuse.
    await sleep(3 * intervalMs);
    assert.equal((await a.meter.consume(w)).allowed, false);
    assert.equal((await b.meter.consume(w)).allowed, false);
  });

  it('counts survive a restart; a crash loses only what was counted since the last sync', async () => {
    const w = window(100);
    const first = await instance(60_000, { started: false });
    for (let i = 0; i < 7; i++) await first.meter.consume(w);
    await first.meter.stop(); // graceful: writes its 7
    const second = await instance(60_000, { started: false });
    assert.equal((await second.meter.consume(w)).remaining, 100 - 8);
    await second.meter.sync(); // 1 written
    for (let i = 0; i < 3; i++) await second.meter.consume(w); // never written: the process "crashes"
    const third = await instance(60_000, { started: false });
    assert.equal((await third.meter.consume(w)).remaining, 100 - 9, 'the 3 calls after the last sync are lost, no more');
  });

  it('makes no database command while deciding: 1,000 consumes cost only the periodic syncs', async () => {
    const commands: string[] = [];
    const intervalMs = 100;
    const { meter } = await instance(intervalMs, { monitor: (e) => commands.push(e.commandName) });
    const w = window(100_000);
    await meter.consume(w); // the first call of a counter loads it
    await meter.sync();
    commands.length = 0;
    const started = performance.now();
    for (let i = 0; i < 1_000; i++) {
      assert.equal((await meter.consume(w)).allowed, true);
      if (i % 10 === 0) await sleep(1); // spread over several sync intervals
    }
    const rounds = Math.ceil((performance.now() - started) / intervalMs) + 1;
    // A round is one bulk write (update) and one read (find).
    assert.ok(
      commands.every((c) => c === 'update' || c === 'find'),
      commands.join(','),
    );
    assert.ok(commands.length <= 2 * rounds, `${commands.length} commands for ${rounds} sync rounds`);
    assert.ok(commands.length < 1_000 / 10);

    // Without the timer the 1,000 calls make no command at all, and one sync makes exactly two.
    await meter.stop();
    commands.length = 0;
    for (let i = 0; i < 1_000; i++) await meter.consume(w);
    assert.deepEqual(commands, []);
    await meter.sync();
    assert.deepEqual(commands, ['update', 'find']);
  });
});
