import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createClient, GrpcError, GrpcStatus, type GrpcClient, testInternalTokens, tokenOfRequestPrincipal, untrustedTokens } from '@stormhook/grpc';
import { createLogger } from '@stormhook/logger';
import { notificationV1 } from '@stormhook/proto';
import type { RunningGrpcService } from '@stormhook/service-kit';
import { loadConfig } from './config.js';
import { DEV_OUTBOX_FILE } from './messaging/dev-outbox-sender.js';
import { start } from './service.js';
import { alarmEvent } from './test-support/harness.js';
import { createKafkaTestEnv, type KafkaTestEnv } from './test-support/kafka-env.js';
import { json, TestReceiver } from './test-support/receiver.js';
import { until } from './test-support/until.js';
import { verifyStandardWebhook } from './test-support/verify-standard-webhook.js';

type Client = GrpcClient<typeof notificationV1.NotifierService>;

async function grpcFailure(call: Promise<unknown>): Promise<GrpcError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof GrpcError) return error;
    throw error;
  }
  assert.fail('the call succeeded');
}

describe('notifier service: Kafka in, webhooks and messages out (real broker, FerretDB, local receiver)', function () {
  this.timeout(60_000);
  const receiver = new TestReceiver();
  const logs: Record<string, unknown>[] = [];
  let world: KafkaTestEnv;
  let service: RunningGrpcService;
  let client: Client;
  let matcher: Client;
  let signingSecret = '';
  const account = 'acc-kafka-1';

  before(async () => {
    await receiver.start();
    world = await createKafkaTestEnv({ METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' });
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    service = await start(loadConfig(world.env), { logger: createLogger({ service: 'notifier', level: 'info', destination }) });
    client = createClient(notificationV1.NotifierService, `127.0.0.1:${service.port}`, {
      internalToken: tokenOfRequestPrincipal(testInternalTokens(), 'notifier'),
    });
    // Endpoints are created by the alarm-matcher (an account's first registration), and only by it.
    const matcherTokens = testInternalTokens('alarm-matcher');
    matcher = createClient(notificationV1.NotifierService, `127.0.0.1:${service.port}`, { internalToken: () => matcherTokens.forService('notifier') });
  });
  after(async () => {
    client?.close();
    matcher?.close();
    await service?.stop();
    await world?.cleanup();
    await receiver.stop();
  });

  const ack = (body: string): object => ({ id: (JSON.parse(body) as { id: string }).id, status: 'SUCCESS', timeEpochMillis: Date.now() });

  it('answers the gateway: a 400 naming field and unit, a 409 for a second endpoint, a masked read, a 404 for no endpoint', async () => {
    const bad = await grpcFailure(
      matcher.createWebhookEndpoint({
        accountId: account,
        ownerEmail: '',
        config: { url: receiver.url('/k'), httpMethod: 'POST', contentType: 'application/json', requestHeaders: {}, deliveryPolicy: { timeoutMs: 0 } },
      }),
    );
    assert.equal(bad.code, GrpcStatus.INVALID_ARGUMENT);
    assert.equal(bad.detail?.httpStatus, 400);
    assert.match(bad.detail?.message ?? '', /^webhook\.deliveryPolicy\.timeout .*milliseconds/);

    const created = await matcher.createWebhookEndpoint({
      accountId: account,
      ownerEmail: 'owner@example.com',
      config: {
        url: receiver.url('/k'),
        httpMethod: 'POST',
        contentType: 'application/json',
        authentication: { type: 'WEBHOOK_AUTH_TYPE_BEARER', username: '', password: 'tok-123' },
        requestHeaders: { 'X-Tenant': 't1' },
        deliveryPolicy: { timeoutMs: 2_000, maxRetries: 0, retryDelaySeconds: 1 },
      },
    });
    signingSecret = created.signingSecret;
    assert.match(signingSecret, /^whsec_/);
    assert.equal(created.endpoint?.config?.deliveryPolicy?.maxRetries, 0, 'an explicit 0 is kept, not defaulted');

    const again = await grpcFailure(
      matcher.createWebhookEndpoint({
        accountId: account,
        ownerEmail: '',
        config: { url: receiver.url('/k'), httpMethod: '', contentType: '', requestHeaders: {} },
      }),
    );
    assert.equal(again.detail?.httpStatus, 409);

    const read = await client.getWebhookEndpoint({ accountId: account });
    assert.equal(read.endpoint?.config?.authentication?.password, '******');
    assert.equal(read.endpoint?.status, 'WEBHOOK_ENDPOINT_STATUS_ENABLED');
    assert.equal(read.endpoint?.ownerEmail, 'owner@example.com');
    const stored = JSON.stringify(await world.mongo.db.collection('webhook_endpoints').findOne({ accountId: account }));
    assert.ok(!stored.includes('tok-123') && !stored.includes(signingSecret), 'credentials and secret are encrypted at rest');

    const none = await grpcFailure(client.getWebhookEndpoint({ accountId: 'acc-without-webhook' }));
    assert.equal(none.detail?.httpStatus, 404);
  });

  it('delivers an alarm.triggered.v1 signed to the stored endpoint; a replayed event makes no second chain', async () => {
    receiver.on('/k', (r, res) => json(res, 200, ack(r.body)));
    const event = alarmEvent(account);
    await world.publishAlarm(event);
    await receiver.waitFor('/k', 1, 15_000);
    const [first] = receiver.at('/k');
    assert.ok(first);
    assert.equal(first.headers['webhook-id'], event.notificationId);
    assert.ok(verifyStandardWebhook(signingSecret, first), 'signature verifies with the secret the owner was given');
    assert.equal(first.headers['authorization'], 'Bearer tok-123');
    assert.equal(first.headers['x-tenant'], 't1');
    assert.equal(first.body, event.payloadJson, 'payload sent byte for byte');

    // The replay (same notification id, new Kafka event id) and a marker event share the key, so one
    // partition holds them in order: once the marker arrives, the replay has been handled.
    await world.publishAlarm(event, `evt_replay_${Date.now()}`);
    const marker = alarmEvent(account);
    await world.publishAlarm(marker);
    await receiver.waitFor('/k', 2, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(
      receiver.at('/k').map((r) => r.headers['webhook-id']),
      [event.notificationId, marker.notificationId],
    );

    const delivery = await until(async () => {
      const got = await client.getDelivery({ accountId: account, notificationId: event.notificationId });
      return got.delivery?.status === 'DELIVERY_STATUS_SUCCEEDED' ? got.delivery : undefined;
    }, 'delivery recorded as succeeded');
    assert.equal(delivery.attempts.length, 1);
    assert.equal(delivery.attempts[0]?.responseStatusCode, 200);
    assert.equal(delivery.payloadJson, event.payloadJson);
  });

  it('serves the delivery log: list, foreign ids as 404, redeliver with the same webhook-id, a test delivery', async () => {
    const listed = await client.listDeliveries({
      accountId: account,
      registrationId: '',
      status: 'DELIVERY_STATUS_SUCCEEDED',
      fromEpochMs: 0,
      toEpochMs: 0,
      failureClass: 'WEBHOOK_FAILURE_CLASS_UNSPECIFIED',
      callbackType: '',
      cursor: '',
      page: { pageNumber: 0, pageSize: 10 },
    });
    assert.equal(listed.page?.totalRecords, 2);
    assert.equal(listed.deliveries.length, 2);
    const [newest] = listed.deliveries;
    assert.ok(newest);

    const foreign = await grpcFailure(client.getDelivery({ accountId: 'acc-other', notificationId: newest.notificationId }));
    assert.equal(foreign.detail?.httpStatus, 404);
    const badPage = await grpcFailure(
      client.listDeliveries({
        accountId: account,
        registrationId: '',
        status: 'DELIVERY_STATUS_UNSPECIFIED',
        fromEpochMs: 0,
        toEpochMs: 0,
        failureClass: 'WEBHOOK_FAILURE_CLASS_UNSPECIFIED',
        callbackType: '',
        cursor: '',
        page: { pageNumber: 0, pageSize: 101 },
      }),
    );
    assert.equal(badPage.detail?.httpStatus, 400);
    assert.match(badPage.message, /pageSize/);

    await client.redeliver({ accountId: account, notificationId: newest.notificationId });
    await receiver.waitFor('/k', 3, 10_000);
    assert.equal(receiver.at('/k')[2]?.headers['webhook-id'], newest.notificationId);
    const redelivered = await until(async () => {
      const got = await client.getDelivery({ accountId: account, notificationId: newest.notificationId });
      return got.delivery?.attempts.length === 2 ? got.delivery : undefined;
    }, 'manual attempt recorded');
    assert.equal(redelivered.attempts[1]?.trigger, 'ATTEMPT_TRIGGER_MANUAL');

    const test = await client.sendTestDelivery({ accountId: account });
    assert.equal(test.delivery?.test, true);
    await receiver.waitFor('/k', 4, 10_000);
    assert.equal(receiver.at('/k')[3]?.headers['webhook-id'], test.delivery?.notificationId);
  });

  it('writes a notification.message-requested.v1 to the development outbox once', async () => {
    const message = notificationV1.MessageRequested.create({
      messageId: `msg_kafka_${Date.now()}`,
      channel: 'MESSAGE_CHANNEL_SMS',
      recipient: '+905551112233',
      template: 'MESSAGE_TEMPLATE_PHONE_ACTIVATION',
      locale: 'en_US',
      params: { code: '731905', expiresAt: '2026-01-01T00:10:00Z' },
    });
    await world.publishMessage(message);
    await world.publishMessage(message); // a republished request is sent once
    const file = join(world.outboxDir, DEV_OUTBOX_FILE);
    const lines = await until(
      async () => {
        const text = await readFile(file, 'utf8').catch(() => '');
        const found = text.split('\n').filter((line) => line.includes(message.messageId));
        return found.length > 0 ? found : undefined;
      },
      'the message in the outbox',
      15_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const all = (await readFile(file, 'utf8')).split('\n').filter((line) => line.includes(message.messageId));
    assert.equal(all.length, 1);
    assert.match(lines[0] ?? '', /activation code is 731905/);
  });

  it('exposes delivery metrics for Prometheus on METRICS_PORT', async () => {
    const line = logs.find((l) => l['msg'] === 'Prometheus metrics served at /metrics');
    const port = Number(line?.['port']);
    assert.ok(port > 0);
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    assert.match(text, /notifier_webhook_attempts_total\{[^}]*endpoint_id="ep_[^"]+"[^}]*\} [1-9]/);
    assert.match(text, /service="notifier"/);
    assert.match(text, /notifier_webhook_delivery_latency_seconds_bucket/);
    assert.match(text, /process_cpu_seconds_total/);
  });

  it('refuses calls without a valid internal token, and a customer naming another account than its token', async () => {
    // The endpoint of `account` exists (first test): without the checks these calls would read it.
    const address = `127.0.0.1:${service.port}`;
    for (const [what, internalToken] of Object.entries(untrustedTokens('notifier'))) {
      const untrusted = createClient(notificationV1.NotifierService, address, internalToken ? { internalToken } : {});
      const failure = await grpcFailure(untrusted.getSigningSecret({ accountId: account }));
      untrusted.close();
      assert.equal(failure.code, GrpcStatus.UNAUTHENTICATED, what);
    }
    const tokens = testInternalTokens();
    const other = {
      userId: '00000000-0000-4000-8000-000000000002',
      accountId: 'acc-other',
      role: 'API_USER',
      username: 'other@example.com',
      via: 'access-token',
    };
    const forger = createClient(notificationV1.NotifierService, address, { internalToken: () => tokens.forPrincipal('notifier', other) });
    const forged = await grpcFailure(forger.getSigningSecret({ accountId: account }));
    // ADMIN acts on any account, as the gateway allows.
    const asAdmin = createClient(notificationV1.NotifierService, address, {
      internalToken: () => tokens.forPrincipal('notifier', { ...other, role: 'ADMIN' }),
    });
    const adminRead = await asAdmin.getWebhookEndpoint({ accountId: account });
    forger.close();
    asAdmin.close();
    assert.equal(forged.code, GrpcStatus.PERMISSION_DENIED);
    assert.equal(adminRead.endpoint?.accountId, account);
  });

  it('lets each caller call only its rpcs (packages/grpc GRPC_RPC_CALLERS): PERMISSION_DENIED naming caller and rpc otherwise', async () => {
    // The alarm-matcher's key reads and creates webhooks; it cannot read secrets, list or redeliver.
    for (const refused of [
      () => matcher.getSigningSecret({ accountId: account }),
      () => matcher.rotateSigningSecret({ accountId: account, previousSecretValidMs: 0 }),
      () => matcher.listDeliveries(notificationV1.ListDeliveriesRequest.create({ accountId: account })),
      () => matcher.redeliver({ accountId: account, notificationId: 'msg_x' }),
      () => matcher.sendTestDelivery({ accountId: account }),
      () =>
        matcher.updateWebhookEndpoint({
          accountId: account,
          ownerEmail: '',
          config: { url: receiver.url('/evil'), httpMethod: '', contentType: '', requestHeaders: {} },
        }),
    ]) {
      const failure = await grpcFailure(refused());
      assert.equal(failure.code, GrpcStatus.PERMISSION_DENIED);
      assert.match(failure.message, /alarm-matcher may not call \/stormhook\.notification\.v1\.NotifierService\//);
    }
    assert.equal((await matcher.getWebhookEndpoint({ accountId: account })).endpoint?.accountId, account);
    const byGateway = await grpcFailure(
      client.createWebhookEndpoint({
        accountId: 'acc-by-gateway',
        ownerEmail: '',
        config: { url: receiver.url('/g'), httpMethod: '', contentType: '', requestHeaders: {} },
      }),
    );
    assert.equal(byGateway.code, GrpcStatus.PERMISSION_DENIED);
    assert.ok(logs.some((line) => line['msg'] === 'gRPC call refused: the caller may not call this rpc' && line['caller'] === 'alarm-matcher'));
  });
});
