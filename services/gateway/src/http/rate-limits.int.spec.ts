import assert from 'node:assert/strict';
import type { RequestHandler } from 'express';
import { createLogger } from '@stormhook/logger';
import { testInfra, uniqueName } from '@stormhook/testing';
import { MongoClient } from 'mongodb';
import { QuotaMeter } from '../quota/quota-meter.js';
import { ABUSE_COLLECTION, ensureQuotaIndexes, QuotaStore } from '../quota/quota-store.js';
import { request, serve, type RunningApp } from '../test-support/serve.js';
import { AbuseLimits, LONGEST_ABUSE_WINDOW_MS, type AbuseLimitSettings } from './rate-limits.js';

const logger = createLogger({ service: 'abuse-it', level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ok: RequestHandler = (_req, res) => {
  res.status(200).json({ ok: true });
};
const OFF: AbuseLimitSettings = {
  authPerAddressPerMin: 0,
  passwordResetPerAddressPerHour: 0,
  unmeteredPerPrincipalPerMin: 0,
  errorsPerMin: 0,
  errorBlockS: 60,
  testDeliveriesPerAccountPerHour: 0,
  backtestsPerAccountPerHour: 0,
  localAllowancePercent: 20,
};

/**
 * Two gateway replicas (each its own app, meter and database connection, as separate processes have)
 * counting the abuse limits into the real database (issue 23 item 4). Per-replica counters in
 * memory let through twice each limit here.
 */
describe('abuse limits across gateway replicas (real database)', function () {
  this.timeout(120_000);
  const dbName = uniqueName('gwabuse').replace(/-/g, '_');
  const clients: MongoClient[] = [];
  const meters: QuotaMeter[] = [];
  const apps: RunningApp[] = [];
  const SYNC_MS = 200;
  /** Every replica reads within one interval plus a round; rounds on a loaded test machine took over 1 s. */
  const SEEN_AFTER_MS = 3_000;
  let longestRoundMs = 0;

  async function replica(settings: Partial<AbuseLimitSettings>): Promise<RunningApp> {
    const client = new MongoClient(testInfra().mongoUrl);
    await client.connect();
    clients.push(client);
    const meter = new QuotaMeter(QuotaStore.over(client.db(dbName), undefined, ABUSE_COLLECTION), {
      syncIntervalMs: SYNC_MS,
      clockSkewMs: 2_000,
      seenAfterMs: SEEN_AFTER_MS,
      learnFromReads: { lookbackMs: LONGEST_ABUSE_WINDOW_MS },
      announcePresence: true,
      logger,
    });
    const sync = meter.sync.bind(meter);
    meter.sync = async () => {
      const started = performance.now();
      await sync();
      longestRoundMs = Math.max(longestRoundMs, performance.now() - started);
    };
    meter.start();
    meters.push(meter);
    const limits = new AbuseLimits({ ...OFF, ...settings }, meter);
    const app = await serve({
      screen: limits.screen,
      guards: (operation) => [...limits.before(operation), ...limits.after(operation)],
      handlers: { login: ok },
    });
    apps.push(app);
    return app;
  }

  /**
   * Counters are per clock minute: start well inside one, so the test's burst stays in one window;
   * and after the replicas have read each other's presence (a replica that knows of no other one
   * lets bursts through up to the limit).
   */
  async function awayFromMinuteEdge(): Promise<void> {
    const left = 60_000 - (Date.now() % 60_000);
    await sleep(left < 20_000 ? left + 50 : 3 * SYNC_MS);
  }

  before(async () => {
    const client = new MongoClient(testInfra().mongoUrl);
    await client.connect();
    await ensureQuotaIndexes(client.db(dbName), ABUSE_COLLECTION);
    await client.close();
  });

  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const meter of meters.splice(0)) await meter.stop().catch(() => undefined);
  });

  after(async () => {
    await clients[0]
      ?.db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    for (const c of clients) await c.close();
  });

  it('lets a burst of logins from one address through two replicas at most limit + (replicas - 1) × local allowance times', async () => {
    const limit = 60; // per address and minute; local allowance 20 % = 12
    const [a, b] = [await replica({ authPerAddressPerMin: limit }), await replica({ authPerAddressPerMin: limit })];
    await awayFromMinuteEdge();
    const login = { username: 'ada@example.com', password: 'not-the-password' };
    const statuses = new Map<number, number>();
    const started = performance.now();
    // Eight callers per replica, as fast as the replicas answer, for 12 s (the local allowance lets a
    // replica serve about 12 per sync interval plus SEEN_AFTER_MS, so the limit binds after about 8 s).
    await Promise.all(
      [a, b].flatMap((app) =>
        Array.from({ length: 8 }, async () => {
          while (performance.now() - started < 12_000) {
            const { status } = await request(app.baseUrl, 'POST', '/v1/auth/login', login);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }),
      ),
    );
    const served = statuses.get(200) ?? 0;
    const refused = statuses.get(429) ?? 0;
    assert.ok(longestRoundMs < SEEN_AFTER_MS - SYNC_MS, `a sync round took ${longestRoundMs.toFixed(0)} ms: the bound's assumption does not hold`);
    assert.ok(served >= limit, `${served} served: the limit itself must be usable`);
    assert.ok(served <= limit + 1 * 12, `${served} logins served (${refused} refused); bound ${limit + 12}, per-replica counting lets ${2 * limit} through`);
  });

  it('blocks an address on every replica once its 4xx answers on one of them pass the limit', async () => {
    const [a, b] = [await replica({ errorsPerMin: 5, errorBlockS: 30 }), await replica({ errorsPerMin: 5, errorBlockS: 30 })];
    await awayFromMinuteEdge();
    for (let i = 0; i < 6; i++) assert.equal((await request(a.baseUrl, 'GET', `/v1/no-such-thing-${i}`)).status, 404);
    const deadline = performance.now() + 5_000;
    let status = 0;
    while (performance.now() < deadline && (status = (await request(b.baseUrl, 'GET', '/v1/no-such-thing')).status) !== 429) await sleep(50);
    assert.equal(status, 429, 'the other replica blocks too');
    const blocked = await request(b.baseUrl, 'GET', '/v1/no-such-thing');
    assert.equal(blocked.status, 429);
    assert.ok(Number(blocked.headers.get('retry-after')) > 20, 'for GATEWAY_ERROR_BLOCK_S');
  });
});
