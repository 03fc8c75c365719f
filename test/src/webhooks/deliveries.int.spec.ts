import assert from 'node:assert/strict';
import { CallbackSchemas } from '../support/callback-schemas.js';
import { Receiver, errorMessage, eventually, startWebhookStack, type TestUser, type WebhookStack } from './support.js';

describe('webhook delivery log through the gateway (/v1/deliveries)', function () {
  this.timeout(60_000);
  let stack: WebhookStack;
  const receiver = new Receiver();
  let owner: TestUser;
  let other: TestUser;
  let schemas: CallbackSchemas;

  before(async () => {
    stack = await startWebhookStack();
    schemas = await CallbackSchemas.served(stack.baseUrl);
    await receiver.start();
    owner = await stack.user('STANDARD_USER', 'NONE');
    other = await stack.user('API_USER', 'NONE');
    await stack.createWebhook(owner.accountId!, { url: receiver.url('/log'), authentication: { type: 'JWT', password: 'bearer-token-1' } });
    await stack.createWebhook(other.accountId!, { url: receiver.url('/other') });
  });
  after(async () => {
    await receiver.stop();
    await stack?.stop();
  });

  const get = (token: string, id: string) => stack.call('GET', `/v1/deliveries/${id}`, { token });
  const finished = (token: string, id: string, attempts = 1) =>
    eventually(
      async () => {
        const read = await get(token, id);
        return ['SUCCEEDED', 'DEAD'].includes(read.body['status']) && read.body['attempts'].length >= attempts ? read.body : undefined;
      },
      15_000,
      `delivery ${id} with ${attempts} attempt(s)`,
    );

  let delivered: string;

  it('sends a test delivery to the stored endpoint and logs it with its attempt', async () => {
    receiver.answer = (_callback, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    const sent = await stack.call('POST', '/v1/alarms/webhooks/test', { token: owner.token });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    delivered = String(sent.body['notificationId']);
    assert.match(delivered, /^ntf_/);
    assert.equal(sent.body['test'], true);
    assert.equal(sent.body['eventKind'], 'TEST');
    assert.ok(['PENDING', 'IN_FLIGHT', 'SUCCEEDED'].includes(sent.body['status']), sent.body['status']);

    const delivery = await finished(owner.token, delivered);
    const callback = receiver.withId(delivered)[0];
    assert.ok(callback);
    assert.equal(callback.headers['authorization'], 'Bearer bearer-token-1');
    assert.deepEqual(delivery['payload'], JSON.parse(callback.body));
    assert.equal(delivery['payload']['type'], 'webhook.test');
    // Its body matches the schema the served OpenAPI publishes for webhook.test, and so does its header.
    schemas.assertSound(callback);
    assert.equal(callback.headers['webhook-event-type'], 'webhook.test');
    assert.equal(delivery['status'], 'SUCCEEDED');
    assert.equal(delivery['accountId'], owner.accountId);
    assert.equal(delivery['registrationId'], null);
    assert.equal(delivery['lastResponseStatusCode'], 200);
    assert.ok(delivery['finishedAtEpochMs'] >= delivery['createdAtEpochMs']);
    assert.equal(delivery['attempts'].length, 1);
    const [attempt] = delivery['attempts'];
    assert.equal(attempt['attemptNumber'], 1);
    assert.equal(attempt['trigger'], 'MANUAL');
    assert.equal(attempt['url'], receiver.url('/log'));
    assert.equal(attempt['responseStatusCode'], 200);
    assert.equal(attempt['responseBody'], '{"received":true}');
    assert.equal(attempt['responseBodyTruncated'], false);
    assert.equal(attempt['succeeded'], true);
    assert.equal(attempt['error'], null);
    assert.equal(attempt['nextAttemptAtEpochMs'], null);
    assert.ok(Number.isInteger(attempt['durationMs']) && attempt['durationMs'] >= 0);
  });

  it('lists deliveries newest first, with status, time and paging filters', async () => {
    receiver.answer = (_callback, res) => void res.writeHead(500).end('x'.repeat(25_000));
    const sent = await stack.call('POST', '/v1/alarms/webhooks/test', { token: owner.token });
    const failed = String(sent.body['notificationId']);
    const dead = await finished(owner.token, failed);
    assert.equal(dead['status'], 'DEAD');
    const [attempt] = dead['attempts'];
    assert.equal(attempt['responseStatusCode'], 500);
    assert.equal(attempt['responseBody'].length, 20_000);
    assert.equal(attempt['responseBodyTruncated'], true);
    assert.equal(attempt['succeeded'], false);
    assert.equal(typeof attempt['error'], 'string');

    const page = (body: unknown) => stack.call('POST', '/v1/deliveries/page', { token: owner.token, body });
    const all = await page({});
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.equal(all.body['totalRecords'], 2);
    assert.deepEqual(
      all.body['deliveries'].map((d: any) => d['notificationId']),
      [failed, delivered],
    );
    assert.equal(all.body['pageNumber'], 0);
    assert.equal(all.body['pageSize'], 20);
    assert.equal(all.body['deliveries'][0]['attempts'], undefined, 'lists leave out attempts');

    assert.deepEqual(
      (await page({ status: 'DEAD' })).body['deliveries'].map((d: any) => d['notificationId']),
      [failed],
    );
    assert.deepEqual(
      (await page({ status: 'SUCCEEDED' })).body['deliveries'].map((d: any) => d['notificationId']),
      [delivered],
    );
    const second = await page({ pageNumber: 1, pageSize: 1 });
    assert.deepEqual(
      second.body['deliveries'].map((d: any) => d['notificationId']),
      [delivered],
    );
    assert.equal(second.body['totalRecords'], 2);
    assert.equal((await page({ fromEpochMs: Date.now() + 60_000 })).body['totalRecords'], 0);
    assert.equal((await page({ toEpochMs: dead['createdAtEpochMs'] })).body['totalRecords'], 1);
    assert.equal((await page({ registrationId: '0b7e4c1d-2a3f-4e5d-9c8b-7a6f5e4d3c2b' })).body['totalRecords'], 0);
    // The other account's log is its own.
    assert.equal((await stack.call('POST', '/v1/deliveries/page', { token: other.token, body: {} })).body['totalRecords'], 0);
  });

  it('filters by failure class and callback type, and pages with a cursor', async () => {
    const page = (body: unknown) => stack.call('POST', '/v1/deliveries/page', { token: owner.token, body });
    const failed = await page({ failureClass: 'HTTP_5XX' });
    assert.equal(failed.status, 200, JSON.stringify(failed.body));
    assert.equal(failed.body['totalRecords'], 1);
    const [dead] = failed.body['deliveries'];
    assert.equal(dead['lastFailureClass'], 'HTTP_5XX');
    assert.equal(dead['callbackType'], 'webhook.test');
    assert.equal((await page({ failureClass: 'TIMEOUT' })).body['totalRecords'], 0);
    assert.equal((await page({ callbackType: 'webhook.test' })).body['totalRecords'], 2);
    assert.equal((await page({ callbackType: 'lightning.strike' })).body['totalRecords'], 0);

    const first = await page({ pageSize: 1 });
    assert.equal(first.body['deliveries'].length, 1);
    assert.equal(typeof first.body['nextCursor'], 'string');
    const second = await page({ pageSize: 1, cursor: first.body['nextCursor'] });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.deepEqual(
      [...first.body['deliveries'], ...second.body['deliveries']].map((d: any) => d['notificationId']),
      (await page({})).body['deliveries'].map((d: any) => d['notificationId']),
    );
    assert.equal(second.body['nextCursor'], null, 'the last page has no next cursor');
    // The detail names each attempt's class.
    const detail = await stack.call('GET', `/v1/deliveries/${String(dead['notificationId'])}`, { token: owner.token });
    assert.equal(detail.body['attempts'][0]['failureClass'], 'HTTP_5XX');
  });

  it('refuses bad page requests with ErrorResponse 400s naming the field', async () => {
    const path = '/v1/deliveries/page';
    const page = (body: unknown) => stack.call('POST', path, { token: owner.token, body });
    assert.match(errorMessage(await page({ pageSize: 101 }), 400, path), /pageSize/);
    assert.match(errorMessage(await page({ pageSize: 0 }), 400, path), /pageSize/);
    assert.match(errorMessage(await page({ pageNumber: -1 }), 400, path), /pageNumber/);
    assert.match(errorMessage(await page({ status: 'LOST' }), 400, path), /status must be one of PENDING, IN_FLIGHT, SUCCEEDED, DEAD/);
    assert.match(errorMessage(await page({ fromEpochMs: 2000, toEpochMs: 1000 }), 400, path), /toEpochMs/);
  });

  it('refuses a cursor it did not issue, and a page number beside a cursor, naming the field', async () => {
    const path = '/v1/deliveries/page';
    const page = (body: unknown) => stack.call('POST', path, { token: owner.token, body });
    assert.match(errorMessage(await page({ cursor: 'bm90LWEtY3Vyc29y' }), 400, path), /cursor/);
    const first = await page({ pageSize: 1 });
    assert.match(errorMessage(await page({ cursor: first.body['nextCursor'], pageNumber: 1 }), 400, path), /pageNumber/);
    assert.match(errorMessage(await page({ failureClass: 'SLOW' }), 400, path), /failureClass/);
  });

  it('redelivers with the same webhook-id and logs the manual attempt', async () => {
    receiver.answer = (_callback, res) => void res.writeHead(204).end();
    const again = await stack.call('POST', `/v1/deliveries/${delivered}/redeliver`, { token: owner.token });
    assert.equal(again.status, 202, JSON.stringify(again.body));
    assert.equal(again.body['notificationId'], delivered);
    const delivery = await finished(owner.token, delivered, 2);
    assert.equal(receiver.withId(delivered).length, 2, 'the receiver saw both attempts under one webhook-id');
    const second = delivery['attempts'][1];
    assert.equal(second['attemptNumber'], 2);
    assert.equal(second['trigger'], 'MANUAL');
    assert.equal(second['responseStatusCode'], 204);
    assert.equal(delivery['status'], 'SUCCEEDED');
  });

  it('refuses a redelivery past the per-delivery cap with a 429 ErrorResponse that names the limit, sending nothing', async () => {
    // One manual attempt was made above; four more reach the default cap of five.
    for (let attempt = 3; attempt <= 6; attempt++) {
      const again = await stack.call('POST', `/v1/deliveries/${delivered}/redeliver`, { token: owner.token });
      assert.equal(again.status, 202, JSON.stringify(again.body));
      await finished(owner.token, delivered, attempt);
    }
    const sent = receiver.withId(delivered).length;
    const path = `/v1/deliveries/${delivered}/redeliver`;
    assert.match(errorMessage(await stack.call('POST', path, { token: owner.token }), 429, path), /^Redelivery limit reached: .*5 manual redeliveries/);
    assert.equal(receiver.withId(delivered).length, sent, 'a refused redelivery sent nothing');
  });

  it("reports the webhook's health: the attempts the receiver answered, by outcome, and the failure by class", async () => {
    const attempts = receiver.received.filter((c) => c.url.startsWith('/log')).length;
    assert.equal(attempts, 7, 'a test delivery with five redeliveries, and one test delivery that died');
    const read = await stack.call('GET', '/v1/alarms/webhooks/health', { token: owner.token });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.equal(read.headers.get('cache-control'), 'no-store');
    const health = read.body;
    // The last attempt succeeded, so the webhook is not failing.
    assert.equal(health['state'], 'ENABLED');
    assert.equal(health['failingSinceEpochMs'], null);
    for (const window of ['lastHour', 'last24Hours', 'last7Days']) {
      // Seven callbacks: one answered 500 (the dead delivery of the listing test), six succeeded.
      assert.deepEqual([health[window]['attempts'], health[window]['succeeded'], health[window]['failed']], [7, 6, 1], window);
      assert.equal(health[window]['successRate'], 6 / 7);
      assert.ok(health[window]['latencyMs']['p99'] > 0);
      // Only test deliveries here: they carry no weather.
      assert.equal(health[window]['weatherAgeMs']['p50'], null);
    }
    assert.deepEqual(
      health['failures'].map((g: any) => [g['failureClass'], g['status'], g['count'], g['example']['responseStatusCode']]),
      [['HTTP_5XX', 500, 1, 500]],
    );
    assert.equal(health['waitingDeliveries'], 0);
    assert.ok(health['lastSuccessEpochMs'] > 0);
    // Another account's webhook is its own business.
    const others = await stack.call('GET', '/v1/alarms/webhooks/health', { token: other.token });
    assert.equal(others.status, 200);
    assert.equal(others.body['lastHour']['attempts'], 0);
  });

  it('recovers through the gateway: a dry run (200), a job (202) followed to DONE, 400s naming the field, 404 for a foreign job', async () => {
    const path = '/v1/alarms/webhooks/recover';
    const since = Date.now() - 3_600_000;
    const dry = await stack.call('POST', path, { token: owner.token, body: { since, mode: 'all', dryRun: true } });
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    // Only test deliveries so far, and a recovery never sends those again.
    assert.deepEqual(dry.body, { dryRun: true, total: 0, byType: {}, job: null });
    const started = await stack.call('POST', path, { token: owner.token, body: { since, mode: 'failed' } });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const jobId = String(started.body['job']['jobId']);
    assert.match(jobId, /^rcv_/);
    const done = await eventually(
      async () => {
        const read = await stack.call('GET', `${path}/${jobId}`, { token: owner.token });
        return read.body['state'] === 'DONE' ? read.body : undefined;
      },
      10_000,
      'the recovery DONE',
    );
    assert.deepEqual([done['mode'], done['total'], done['sent'], done['failed']], ['failed', 0, 0, 0]);
    assert.match(errorMessage(await stack.call('POST', path, { token: owner.token, body: { since, mode: 'newest' } }), 400, path), /mode/);
    assert.match(errorMessage(await stack.call('POST', path, { token: owner.token, body: { mode: 'all' } }), 400, path), /since/);
    errorMessage(await stack.call('GET', `${path}/${jobId}`, { token: other.token }), 404, `${path}/${jobId}`);
  });

  it("answers 404 for another account's notification id and an unknown one, and 403 to a caller without an account", async () => {
    const path = `/v1/deliveries/${delivered}`;
    assert.match(errorMessage(await get(other.token, delivered), 404, path), /not found/i);
    errorMessage(await stack.call('POST', `${path}/redeliver`, { token: other.token }), 404, `${path}/redeliver`);
    assert.equal(receiver.withId(delivered).length, 6, 'a refused redelivery sent nothing');
    errorMessage(await get(owner.token, 'ntf_unknown'), 404, '/v1/deliveries/ntf_unknown');
    errorMessage(await get(owner.token, 'bad%20id'), 400, '/v1/deliveries/bad%20id');
    const admin = await stack.call('GET', `${path}?accountId=${owner.accountId}`, { token: await stack.adminToken() });
    assert.equal(admin.status, 200);
    const lone = await stack.user('API_USER');
    assert.match(errorMessage(await get(lone.token, delivered), 403, path), /needs an account/);
  });

  it('sent only callbacks that validate against the webhooks section of the served OpenAPI', () => {
    assert.ok(receiver.received.length >= 3, `${receiver.received.length} callbacks`);
    for (const call of receiver.received) schemas.assertSound(call);
  });
});
