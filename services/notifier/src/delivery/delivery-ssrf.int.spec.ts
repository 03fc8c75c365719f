import assert from 'node:assert/strict';
import { newId } from '../domain/ids.js';
import { newWebhookEndpoint } from '../domain/endpoint.js';
import { TestReceiver } from '../test-support/receiver.js';
import { alarmEvent, endpointConfig, startHarness, type NotifierHarness } from '../test-support/harness.js';
import { until } from '../test-support/until.js';
import { SsrfPolicy } from '../security/ssrf-policy.js';
import { UrlGuard } from '../security/url-guard.js';
import { DEFAULT_DELIVERY_POLICY } from '../domain/delivery-policy.js';

describe('webhook delivery: SSRF protection at connect time (FerretDB + local receiver)', function () {
  this.timeout(30_000);
  let h: NotifierHarness;
  const receiver = new TestReceiver();

  before(async () => {
    h = await startHarness();
    await receiver.start();
  });
  after(async () => {
    await h?.close();
    await receiver.stop();
  });

  const blocked = (port: number): string[] => [
    `http://127.0.0.1:${port}/loop`,
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/hook',
    `http://[::1]:${port}/hook`,
    `http://[::ffff:127.0.0.1]:${port}/hook`,
    `http://localhost:${port}/hook`,
  ];

  it('refuses each internal address at registration', async () => {
    const guard = new UrlGuard(new SsrfPolicy([]));
    for (const url of blocked(receiver.port)) {
      const result = await guard.validate(url);
      assert.equal(result.ok, false, url);
      assert.match(!result.ok ? result.error.message : '', /webhook\.url points to a disallowed address/);
    }
  });

  it('refuses and logs each internal address at connect time, even when stored before the rules', async () => {
    // A worker WITHOUT the test allow-list: loopback is refused like every other internal range.
    const { accept } = h.instance({}, []);
    const ids: string[] = [];
    for (const [i, url] of blocked(receiver.port).entries()) {
      const accountId = `acc-ssrf-${i}`;
      const now = new Date();
      // Written straight to the repository, as an endpoint whose name later rebinds would look.
      await h.endpointRepo.insert(
        newWebhookEndpoint(
          {
            url,
            httpMethod: 'POST',
            contentType: 'application/json',
            authentication: { type: 'NONE', username: '', password: '' },
            requestHeaders: {},
            deliveryPolicy: { ...DEFAULT_DELIVERY_POLICY, maxRetries: 0 },
          },
          { id: newId('ep'), accountId, signingSecret: 'whsec_' + Buffer.alloc(32, 7).toString('base64'), now },
        ),
      );
      const event = alarmEvent(accountId);
      ids.push(event.notificationId);
      await accept.execute(event);
    }
    for (const [i, id] of ids.entries()) {
      const delivery = await until(async () => {
        const d = await h.store.get(id);
        return d && d.status === 'dead' ? d : undefined;
      }, `delivery ${i} refused`);
      assert.match(delivery.attempts[0]?.error ?? '', /refused by SSRF policy/, blocked(receiver.port)[i]);
      assert.equal(delivery.attempts[0]?.responseStatus, null);
    }
    assert.equal(receiver.requests.length, 0, 'nothing reached the receiver');
    const logged = h.logs.filter((l) => l['msg'] === 'webhook callback refused by SSRF policy');
    assert.equal(logged.length, ids.length);
  });

  it('reaches the loopback receiver when the operator allow-list holds it', async () => {
    const { accept } = h.instance({}, ['127.0.0.1/32']);
    assert.ok((await h.endpoints.create('acc-allowed', endpointConfig(receiver.url('/allowed')))).ok);
    await accept.execute(alarmEvent('acc-allowed'));
    await receiver.waitFor('/allowed', 1);
  });
});
