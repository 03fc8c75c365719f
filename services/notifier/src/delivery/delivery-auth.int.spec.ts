import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { json, TestReceiver, type ReceivedRequest } from '../test-support/receiver.js';
import { alarmEvent, endpointConfig, startHarness, type NotifierHarness } from '../test-support/harness.js';
import { until } from '../test-support/until.js';
import { verifyStandardWebhook } from '../test-support/verify-standard-webhook.js';

describe('webhook delivery: authentication, headers and signatures (FerretDB + local receiver)', function () {
  this.timeout(30_000);
  let h: NotifierHarness;
  const receiver = new TestReceiver();
  let accept: ReturnType<NotifierHarness['instance']>['accept'];

  before(async () => {
    h = await startHarness();
    await receiver.start();
    accept = h.instance().accept;
  });
  after(async () => {
    await h?.close();
    await receiver.stop();
  });

  const cases = [
    { type: 'NONE', auth: {}, check: (r: ReceivedRequest) => assert.equal(r.headers['authorization'], undefined) },
    {
      type: 'BASIC',
      auth: { username: 'alice', password: 'p@ss:word' },
      check: (r: ReceivedRequest) => assert.equal(r.headers['authorization'], `Basic ${Buffer.from('alice:p@ss:word').toString('base64')}`),
    },
    { type: 'API_KEY_HEADER', auth: { password: 'key-123' }, check: (r: ReceivedRequest) => assert.equal(r.headers['x-api-key'], 'key-123') },
    {
      type: 'API_KEY_QUERY',
      auth: { password: 'key 456' },
      check: (r: ReceivedRequest) => assert.equal(new URL(r.url, 'http://x').searchParams.get('apiKey'), 'key 456'),
    },
    {
      type: 'BEARER',
      auth: { password: 'eyJhbGciOi.jwt.token' },
      check: (r: ReceivedRequest) => assert.equal(r.headers['authorization'], 'Bearer eyJhbGciOi.jwt.token'),
    },
    {
      type: 'HMAC',
      auth: { username: 'client-7', password: 'a-shared-hmac-key-0123456789' },
      check: (r: ReceivedRequest) => {
        assert.equal(r.headers['x-client-id'], 'client-7');
        assert.equal(r.headers['x-hmacalgorithm'], 'HmacSHA256');
        assert.match(String(r.headers['x-nonce']), /^[0-9a-f-]{36}$/);
        const signed = `POST|${r.url}|${String(r.headers['x-timestamp'])}|${r.body}`;
        assert.equal(r.headers['x-signature'], createHmac('sha256', 'a-shared-hmac-key-0123456789').update(signed).digest('base64'));
        assert.ok(Math.abs(Number(r.headers['x-timestamp']) - Date.now()) < 60_000, 'X-Timestamp is epoch ms');
      },
    },
  ] as const;

  for (const c of cases) {
    it(`sends ${c.type} credentials as the incumbent documents them`, async () => {
      const path = `/auth-${c.type}`;
      const account = `acc-auth-${c.type}`;
      const created = await h.endpoints.create(account, endpointConfig(receiver.url(path), { authentication: { type: c.type, ...c.auth } }));
      assert.ok(created.ok, JSON.stringify(created));
      await accept.execute(alarmEvent(account));
      await receiver.waitFor(path, 1);
      const request = receiver.at(path)[0] as ReceivedRequest;
      c.check(request);
      assert.ok(verifyStandardWebhook(created.value.signingSecret, request), 'Standard Webhooks signature verifies');
    });
  }

  it('sends the custom headers, method and content type, and masks secrets in reads and the attempt log', async () => {
    const account = 'acc-headers';
    const created = await h.endpoints.create(
      account,
      endpointConfig(receiver.url('/headers'), {
        httpMethod: 'PUT',
        requestHeaders: { 'X-Tenant': 'acme', 'X-Trace.Flag': 'on' },
        authentication: { type: 'API_KEY_QUERY', password: 'secret-key' },
      }),
    );
    assert.ok(created.ok);
    const event = alarmEvent(account);
    await accept.execute(event);
    await receiver.waitFor('/headers', 1);
    const request = receiver.at('/headers')[0] as ReceivedRequest;
    assert.equal(request.method, 'PUT');
    assert.equal(request.headers['x-tenant'], 'acme');
    assert.equal(request.headers['x-trace.flag'], 'on');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['webhook-id'], event.notificationId);
    assert.equal(request.body, event.payloadJson, 'payload sent byte for byte');

    const read = await h.endpoints.get(account);
    assert.ok(read.ok);
    assert.equal(read.value.authentication.password, '******');
    const stored = await h.mongo.db.collection('webhook_endpoints').findOne({ accountId: account });
    assert.ok(!JSON.stringify(stored).includes('secret-key'), 'the API key is encrypted at rest');
    const delivery = await until(async () => {
      const d = await h.deliveryLog.get(account, event.notificationId);
      return d.ok && d.value.status === 'succeeded' ? d.value : undefined;
    }, 'delivery succeeded');
    assert.match(delivery.attempts[0]?.url ?? '', /apiKey=\*{6}/);
  });

  it('sends both signatures during a secret rotation, each verifiable on its own', async () => {
    const account = 'acc-rotate';
    const created = await h.endpoints.create(account, endpointConfig(receiver.url('/rotate')));
    assert.ok(created.ok);
    const rotated = await h.endpoints.rotateSecret(account);
    assert.ok(rotated.ok);
    assert.equal(rotated.value.previousSigningSecret, created.value.signingSecret);
    await accept.execute(alarmEvent(account));
    await receiver.waitFor('/rotate', 1);
    const request = receiver.at('/rotate')[0] as ReceivedRequest;
    assert.equal(String(request.headers['webhook-signature']).split(' ').length, 2);
    assert.ok(verifyStandardWebhook(rotated.value.signingSecret, request), 'new secret verifies');
    assert.ok(verifyStandardWebhook(created.value.signingSecret, request), 'previous secret verifies');
    assert.ok(!verifyStandardWebhook('whsec_' + Buffer.alloc(32, 1).toString('base64'), request), 'another secret does not');
  });

  it('keeps one delivery per notification id when the event is replayed', async () => {
    const account = 'acc-replay';
    assert.ok((await h.endpoints.create(account, endpointConfig(receiver.url('/replay')))).ok);
    receiver.on('/replay', (r, res) => json(res, 200, { id: JSON.parse(r.body).id, status: 'SUCCESS', timeEpochMillis: Date.now() }));
    const event = alarmEvent(account);
    assert.equal(await accept.execute(event), 'accepted');
    assert.equal(await accept.execute(event), 'duplicate');
    await receiver.waitFor('/replay', 1);
    await until(async () => ((await h.store.get(event.notificationId))?.status === 'succeeded' ? true : undefined), 'success');
    assert.equal(await accept.execute(event), 'duplicate');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(receiver.at('/replay').length, 1);
    assert.equal(await h.mongo.db.collection('deliveries').countDocuments({ _id: event.notificationId as never }), 1);
  });
});
