import type { Consumer, Kafka } from 'kafkajs';
import { headersAsText, topicNamer, TopicNames } from '@stormhook/kafka';
import { alarmV1 } from '@stormhook/proto';
import { uniqueName } from '@stormhook/testing';

export interface TappedAlarm {
  key: string | null;
  headers: Record<string, string>;
  message: alarmV1.AlarmTriggered;
  payload: Record<string, unknown>;
  /** When the tap received it, epoch ms (latency measurements). */
  receivedAtMs: number;
}

/** Reads alarm.triggered.v1 from the beginning into memory, for assertions. */
export class AlarmTap {
  readonly alarms: TappedAlarm[] = [];
  private consumer: Consumer | undefined;
  readonly groupId = uniqueName('am-tap');

  constructor(
    private readonly kafka: Kafka,
    private readonly prefix: string,
  ) {}

  async start(): Promise<void> {
    this.consumer = this.kafka.consumer({ groupId: this.groupId, sessionTimeout: 10_000, heartbeatInterval: 1_000, maxWaitTimeInMs: 100 });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: topicNamer(this.prefix).physical(TopicNames.AlarmTriggered), fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        if (!message.value) return;
        const decoded = alarmV1.AlarmTriggered.decode(message.value);
        this.alarms.push({
          key: message.key?.toString('utf8') ?? null,
          headers: headersAsText(message.headers),
          message: decoded,
          payload: JSON.parse(decoded.payloadJson) as Record<string, unknown>,
          receivedAtMs: Date.now(),
        });
      },
    });
  }

  forRegistration(registrationId: string): TappedAlarm[] {
    return this.alarms.filter((a) => a.message.registrationId === registrationId);
  }

  /** Waits until `count` alarms of the registration arrived, then `settleMs` longer to catch extras. */
  async expect(registrationId: string, count: number, timeoutMs = 15_000, settleMs = 300): Promise<TappedAlarm[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.forRegistration(registrationId).length < count) {
      if (Date.now() > deadline) {
        throw new Error(`expected ${count} alarm(s) for ${registrationId}, got ${this.forRegistration(registrationId).length}`);
      }
      await new Promise((resolve) => setTimeout(resolve, settleMs > 0 ? 50 : 2));
    }
    if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
    return this.forRegistration(registrationId);
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
    const admin = this.kafka.admin();
    await admin.connect();
    await admin.deleteGroups([this.groupId]).catch(() => undefined);
    await admin.disconnect();
  }
}

/** Polls until `condition` holds. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
