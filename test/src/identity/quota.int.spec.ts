import assert from 'node:assert/strict';
import type { RequestHandler } from 'express';
import { QUOTA_COLLECTION } from '@stormhook/gateway';
import { connectMongo } from '@stormhook/mongo';
import { testInfra } from '@stormhook/testing';
import { errorBody, PLACES, startIdentityStack, type IdentityStack } from './support.js';

const ok: RequestHandler = (_req, res) => {
  res.json({ ok: true });
};

/** Long enough for every gateway to write its counts and read the others' (QUOTA_SYNC_INTERVAL_MS default 1 s). */
const synced = () => new Promise((resolve) => setTimeout(resolve, 2_300));

describe('quota counters shared by gateway instances and kept across restarts', function () {
  this.timeout(60_000);
  let stack: IdentityStack;

  before(async () => {
    stack = await startIdentityStack({ getCurrentForecast: ok });
  });
  after(async () => {
    await stack?.stop();
  });

  async function subscriber(forecasts: number) {
    const u = await stack.user('API_USER', 'NONE');
    const set = await stack.call('POST', '/v1/accounts/update-subscription', {
      token: await stack.adminToken(),
      body: {
        accountId: u.accountId,
        subscriptionPlan: 'CUSTOM',
        planDetails: {
          details: [
            {
              limitResetRecurrence: { limitType: 'MONTHLY' },
              geoBoundary: { country: 'TUR' },
              apiServiceLimits: [{ serviceName: 'FORECAST', maxInvocation: forecasts }],
            },
          ],
        },
      },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    return u;
  }

  const body = { location: { lat: PLACES.ankara.lat, lng: PLACES.ankara.lng }, metrics: ['TEMPERATURE'], forecastDays: 1 };
  const urlOf = (g: { port: number }) => `http://127.0.0.1:${g.port}`;

  it('counts calls through two instances in one counter, and a restarted instance still sees it', async () => {
    const u = await subscriber(4);
    const [first] = stack.gateways;
    assert.ok(first);
    const second = await stack.startGateway();
    const through = async (g: { port: number }) => stack.call('POST', '/v1/forecasts/current', { token: u.token, body, baseUrl: urlOf(g) });

    const remaining = async (g: { port: number }) => {
      const answer = await through(g);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.headers.get('ratelimit-remaining');
    };
    assert.equal(await remaining(first), '3');
    await synced();
    assert.equal(await remaining(second), '2');
    await synced();
    assert.equal(await remaining(first), '1');
    await synced();

    // Each instance wrote only its own share of the counter.
    const mongo = await connectMongo({ url: testInfra().mongoUrl, dbName: `${stack.dbPrefix}_gateway`, appName: 'quota-it' });
    try {
      const shares = await mongo.db
        .collection(QUOTA_COLLECTION)
        .find({ key: new RegExp(`^${u.accountId}\\|FORECAST\\|`) })
        .toArray();
      assert.equal(shares.length, 2);
      assert.deepEqual(shares.map((s) => s['count']).sort(), [1, 2]);
    } finally {
      await mongo.close();
    }

    // A graceful stop writes what the instance counted; the restarted one loads every share.
    await stack.stopGateway(first);
    const restarted = await stack.startGateway();
    const last = await through(restarted);
    assert.equal(last.status, 200);
    assert.equal(last.headers.get('ratelimit-remaining'), '0');
    await synced();
    errorBody(await through(second), 429, '/v1/forecasts/current');
    const again = await through(restarted);
    errorBody(again, 429, '/v1/forecasts/current');
    assert.ok(Number(again.headers.get('retry-after')) > 0);
  });

  it('two instances hit at once serve no more than the limit each, and both refuse once synced', async () => {
    const u = await subscriber(6);
    while (stack.gateways.length < 2) await stack.startGateway();
    const [a, b] = stack.gateways;
    assert.ok(a && b);
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => stack.call('POST', '/v1/forecasts/current', { token: u.token, body, baseUrl: urlOf(i % 2 === 0 ? a : b) })),
    );
    assert.ok(burst.every((r) => r.status === 200 || r.status === 429));
    // Within one sync interval each instance sees only its own calls: the documented overshoot
    // (instances × calls per instance within two intervals) is at most the other instance's share.
    const served = burst.filter((r) => r.status === 200).length;
    assert.ok(served >= 6 && served <= 12, `${served} served`);
    await synced();
    for (const g of [a, b])
      errorBody(await stack.call('POST', '/v1/forecasts/current', { token: u.token, body, baseUrl: urlOf(g) }), 429, '/v1/forecasts/current');
  });
});
