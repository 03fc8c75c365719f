import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createLogger } from '@stormhook/logger';
import { notificationV1 } from '@stormhook/proto';
import type { RunningGrpcService } from '@stormhook/service-kit';
import { loadConfig } from '../config.js';
import { COLLECTIONS } from '../persistence/collections.js';
import { start } from '../service.js';
import { createKafkaTestEnv, type KafkaTestEnv } from '../test-support/kafka-env.js';
import { until } from '../test-support/until.js';

/** An SMS gateway that holds every request until told to answer (a slow provider). */
class SlowSmsGateway {
  private server: Server | undefined;
  answering = false;
  readonly received: Array<{ messageId: string; text: string }> = [];
  private readonly held: ServerResponse[] = [];

  async start(): Promise<string> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        if (!this.answering) {
          this.held.push(res);
          return;
        }
        const parsed = JSON.parse(body) as { messageId: string; text: string };
        this.received.push({ messageId: parsed.messageId, text: parsed.text });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `sms-${parsed.messageId}` }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/send`;
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const sms = (id: string): notificationV1.MessageRequested =>
  notificationV1.MessageRequested.create({
    messageId: id,
    channel: 'MESSAGE_CHANNEL_SMS',
    recipient: '+905551112233',
    template: 'MESSAGE_TEMPLATE_PHONE_ACTIVATION',
    locale: 'en_US',
    params: { code: '731905', expiresAt: '2026-01-01T00:10:00Z' },
  });

describe('SMS and e-mail outbox (real broker, FerretDB, slow SMS gateway)', function () {
  this.timeout(90_000);
  const gateway = new SlowSmsGateway();
  let world: KafkaTestEnv;
  let service: RunningGrpcService | undefined;
  const logger = createLogger({ service: 'notifier', level: 'silent' });

  before(async () => {
    const url = await gateway.start();
    world = await createKafkaTestEnv({
      SMS_GATEWAY_URL: url,
      SMS_GATEWAY_TOKEN: 'test-token',
      NOTIFIER_MESSAGE_SEND_TIMEOUT_MS: '300',
      NOTIFIER_MESSAGE_RETRY_BASE_MS: '200',
      NOTIFIER_MESSAGE_RETRY_MAX_MS: '400',
      NOTIFIER_MESSAGE_POLL_INTERVAL_MS: '50',
      NOTIFIER_MESSAGE_MAX_ATTEMPTS: '100',
    });
  });
  after(async () => {
    await service?.stop();
    await world?.cleanup();
    await gateway.stop();
  });

  it('queues every request at once while the gateway hangs, and sends each once it answers, across a notifier restart', async () => {
    service = await start(loadConfig(world.env), { logger });
    const ids = Array.from({ length: 5 }, (_, i) => `msg_slow_${Date.now()}_${i}`);
    const outbox = world.mongo.db.collection(COLLECTIONS.messageOutbox);
    const started = Date.now();
    for (const id of ids) await world.publishMessage(sms(id));
    // Before the fix the consumer sent inline, one record at a time: the second request waited for
    // the first answer, which never came.
    await until(async () => (await outbox.countDocuments({ _id: { $in: ids } } as never)) === ids.length, 'all five requests in the outbox', 15_000);
    const queuedAfterMs = Date.now() - started;
    // The payload is encrypted at rest: neither the code nor the number is in the document.
    const stored = JSON.stringify(await outbox.findOne({ _id: ids[0] } as never));
    assert.ok(!stored.includes('731905') && !stored.includes('+905551112233'), stored);
    await until(async () => ((await outbox.findOne({ _id: ids[0] } as never))?.['attempts'] ?? 0) >= 2, 'attempts timing out and being retried', 15_000);
    assert.equal(gateway.received.length, 0);

    // Restart with every message still pending: nothing is in Kafka's hands any more, all is in the outbox.
    await service.stop();
    service = undefined;
    gateway.answering = true;
    service = await start(loadConfig(world.env), { logger });
    await until(async () => ids.every((id) => gateway.received.some((r) => r.messageId === id)), 'every message sent after the restart', 30_000);
    await until(async () => (await outbox.countDocuments({ _id: { $in: ids } } as never)) === 0, 'the outbox emptied', 10_000);
    const log = await world.mongo.db
      .collection(COLLECTIONS.messages)
      .find({ _id: { $in: ids } } as never)
      .toArray();
    assert.deepEqual(
      log.map((l) => l['status']),
      ids.map(() => 'sent'),
    );
    assert.match(gateway.received[0]?.text ?? '', /activation code is 731905/);
    assert.ok(queuedAfterMs < 15_000);
  });
});
