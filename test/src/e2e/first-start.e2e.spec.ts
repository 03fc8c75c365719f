import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { uniqueName } from '@stormhook/testing';
import { CallbackSchemas } from '../support/callback-schemas.js';
import { ApiClient } from './support/api-client.js';
import { createCustomer } from './support/customer.js';
import { eventually } from './support/geo-math.js';
import { ANKARA } from './support/places.js';
import { freePort, freePortRange } from './support/ports.js';
import { fullWebhook } from './support/registrations.js';
import { repoRoot } from './support/repo.js';
import { launchStack, type StackProcess } from './support/stack-process.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const MINUTE = 60_000;

/**
 * Issue 14's acceptance, the way a newcomer meets the product: `npm start` with nothing set (no
 * STORMHOOK_FEED_SIM, no link origins), then the API as the README shows it. The stack gets its own
 * embedded Kafka and FerretDB on free ports (STORMHOOK_INSTANCE keeps their data apart), so it never
 * touches the broker and database other runs share. Settings beyond a bare start: the ports, and
 * NOTIFIER_SSRF_ALLOW_CIDRS so the notifier may call a receiver on 127.0.0.1.
 */
describe('first start: a living product from `npm start` alone (issue 14)', function () {
  this.timeout(20 * MINUTE);
  const instance = uniqueName('first');
  const admin = { email: `admin@${instance}.e2e.test`, password: `first-admin-${instance}` };
  let stack: StackProcess;
  let api: ApiClient;
  let adminToken: string;
  let upAtMs: number;

  before(async () => {
    const grpcBasePort = await freePortRange(6);
    const ports = new Set<number>();
    for (let i = grpcBasePort; i < grpcBasePort + 6; i++) ports.add(i);
    const distinct = async () => {
      let port = await freePort();
      while (ports.has(port)) port = await freePort();
      ports.add(port);
      return port;
    };
    const gatewayPort = await distinct();
    stack = await launchStack(
      {
        instance,
        topicPrefix: instance,
        dbPrefix: instance.replace(/-/g, '_'),
        gatewayPort,
        grpcBasePort,
        admin,
        unset: ['KAFKA_BROKERS', 'MONGO_URL', 'STORMHOOK_ALLOWED_LINK_ORIGINS', 'NOTIFIER_DEV_OUTBOX_DIR'],
        extraEnv: {
          STORMHOOK_KAFKA_PORT: String(await distinct()),
          STORMHOOK_KAFKA_CONTROLLER_PORT: String(await distinct()),
          STORMHOOK_FERRETDB_PORT: String(await distinct()),
          NOTIFIER_SSRF_ALLOW_CIDRS: '127.0.0.1/32',
        },
      },
      // Its own broker and database start first: a minute more than the shared-infrastructure stack.
      6 * MINUTE,
    );
    upAtMs = Date.now();
    api = new ApiClient(stack.baseUrl);
    adminToken = (await api.login(admin.email, admin.password)).accessToken;
  });

  after(async function () {
    this.timeout(3 * MINUTE);
    if (!stack) return;
    const code = await stack.interrupt(120_000).catch(() => 'timeout' as const);
    if (stack.leftovers().length > 0) stack.kill();
    rmSync(join(repoRoot, '.stack', 'data', instance), { recursive: true, force: true });
    rmSync(join(repoRoot, '.stack', 'run', instance), { recursive: true, force: true });
    assert.equal(code, 0, `the stack did not stop cleanly on Ctrl-C:\n${stack.tail()}`);
  });

  it('says in the start banner and in /v1/health that the weather is synthetic', async () => {
    assert.match(stack.tail(400), /weather data: SYNTHETIC, from the feed simulator/);
    const health = await api.expect(200, 'GET', '/v1/health');
    assert.match(String(health.body.dataSource), /SYNTHETIC/);
  });

  it('has precipitation of the last hour and a forecast for Ankara within 2 minutes of the start', async () => {
    const precipitations = await eventually(
      async () => {
        const answer = await api.expect(200, 'POST', '/v1/precipitations/page', {
          token: adminToken,
          body: { backwardInterval: 3600, endTimeEpoch: Date.now(), pageNumber: 0, pageSize: 10 },
        });
        return answer.body.totalRecords > 0 ? answer.body : undefined;
      },
      'a precipitation record of the last hour',
      Math.max(1_000, upAtMs + 2 * MINUTE - Date.now()),
    );
    assert.ok(precipitations.precipitations.length > 0);
    // The simulator's backfill publishes the feeds side by side; a thunderstorm may reach the read model
    // a moment after the first precipitation, so it gets the same 2-minute budget.
    const thunderstorms = await eventually(
      async () => {
        const answer = await api.expect(200, 'POST', '/v1/thunderstorms/page', {
          token: adminToken,
          body: { backwardInterval: 3600, endTimeEpoch: Date.now(), pageNumber: 0, pageSize: 10 },
        });
        return answer.body.totalRecords > 0 ? answer : undefined;
      },
      'the demo thunderstorm listed',
      Math.max(1_000, upAtMs + 2 * MINUTE - Date.now()),
    );
    assert.ok(thunderstorms.body.totalRecords > 0, 'the demo thunderstorm is listed');
    const forecast = await eventually(
      async () => {
        const answer = await api.call('POST', '/v1/forecasts/current', {
          token: adminToken,
          body: { location: ANKARA, metrics: ['TEMPERATURE', 'PRECIPITATION'], forecastDays: 1 },
        });
        return answer.status === 200 ? answer.body : undefined;
      },
      'a forecast for Ankara',
      Math.max(1_000, upAtMs + 2 * MINUTE - Date.now()),
    );
    assert.equal(forecast.model, 'stormhook-sim', 'the forecast names the synthetic model');
    const temperatures = forecast.metricForecasts[0].forecasts as Array<{ value: number | null }>;
    assert.ok(temperatures.length > 0 && temperatures.every((v) => typeof v.value === 'number'), JSON.stringify(temperatures.slice(0, 3)));
  });

  it('calls back a point alarm over the simulated storm within 5 minutes, typed and versioned', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const customer = await createCustomer(api, adminToken, { geoBoundary: { country: 'TUR', region: 'Ankara' } });
      const registeredAt = Date.now();
      await api.expect(200, 'POST', '/v1/alarms/points/register', {
        token: customer.token,
        body: { recipientId: 'first-start', boundary: { point: ANKARA, radius: 20_000 }, webhook: fullWebhook(receiver.url), filter: { lightning: {} } },
      });
      const call = await receiver.waitFor((calls) => calls.find((c) => JSON.parse(c.body).type === 'lightning.strike'), 'a lightning callback', 5 * MINUTE);
      // Valid against the schema of its type in the OpenAPI this gateway serves, the type as its header.
      const schemas = await CallbackSchemas.served(stack.baseUrl);
      const payload = schemas.assertSound(call);
      assert.equal(call.headers['webhook-event-type'], 'lightning.strike');
      assert.equal(payload['payloadVersion'], 1);
      assert.match(String(payload['strikeId']), /^sim\d+-demo/, 'a strike of the synthetic demo storm');
      assert.ok(['FLASH_CLOUD_TO_GROUND', 'FLASH_IN_CLOUD'].includes(String(payload['dischargeType'])));
      for (const other of receiver.calls) schemas.assertSound(other);
      process.stdout.write(
        `      first callback ${((call.receivedAtMs - registeredAt) / 1000).toFixed(1)} s after registering, ${((call.receivedAtMs - upAtMs) / 1000).toFixed(0)} s after the start\n`,
      );
    } finally {
      await receiver.stop();
    }
  });

  it('sends the password reset e-mail and the phone activation SMS on a default start, to the outbox it names', async () => {
    const customer = await createCustomer(api, adminToken);
    await api.expect(202, 'POST', '/v1/users/password-reset-request', {
      body: { username: customer.username, resetPageLink: 'http://localhost:3000/reset-password' },
    });
    const phone = `+90532${String(Date.now()).slice(-7)}`;
    await api.expect(200, 'PATCH', '/v1/accounts/update', { token: customer.token, body: { accountId: customer.accountId, mobilePhoneNumber: phone } });
    const sms = await api.expect(200, 'POST', '/v1/accounts/phone-number-activation-request', {
      token: customer.token,
      body: { userId: customer.userId, accountId: customer.accountId, phoneNumberActivationPageLink: `${stack.baseUrl}/activate` },
    });
    assert.equal(sms.body.smsSent, true);
    // The README's path; the terminal names it when a message is written.
    const outbox = join(repoRoot, '.stack', 'data', 'notifier-outbox', 'messages.jsonl');
    await eventually(
      async () => /written to the development outbox: \S+messages\.jsonl/.test(stack.tail(400)) || undefined,
      'the outbox path in the terminal',
      30_000,
    );
    await eventually(
      async () => {
        if (!existsSync(outbox)) return undefined;
        const lines = readFileSync(outbox, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { recipient: string; channel: string });
        const mail = lines.some((m) => m.recipient === customer.username && m.channel === 'email');
        const text = lines.some((m) => m.recipient === phone && m.channel === 'sms');
        return mail && text ? true : undefined;
      },
      'the reset e-mail and the activation SMS in the outbox',
      30_000,
    );
  });

  it('accepts the role under `roles`, as the User resource names it', async () => {
    const created = await api.expect(201, 'POST', '/v1/users/create', {
      token: adminToken,
      body: { username: `roles-${instance}@e2e.example.com`, firstName: 'R', lastName: 'S', roles: 'API_USER', password: 'first-start-pw-1' },
    });
    assert.equal(created.body.roles, 'API_USER');
  });
});
