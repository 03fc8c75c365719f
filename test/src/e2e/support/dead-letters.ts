import { headersAsText } from '@stormhook/kafka';
import { testKafkaSasl } from '@stormhook/testing';
import { Kafka, logLevel, type Consumer } from 'kafkajs';

export interface DeadLetter {
  key: string | null;
  headers: Record<string, string>;
  valueBytes: number;
}

/**
 * Reads the stack's dead-letter topic from its beginning with a group of its own, the way an
 * operator inspects rejects: by key and the deadletter-* headers.
 */
export class DeadLetterReader {
  readonly letters: DeadLetter[] = [];

  private constructor(private readonly consumer: Consumer) {}

  static async start(brokers: string[], topic: string, groupId: string): Promise<DeadLetterReader> {
    const kafka = new Kafka({ clientId: 'e2e-dead-letters', brokers, logLevel: logLevel.NOTHING, ...testKafkaSasl() });
    const consumer = kafka.consumer({ groupId, sessionTimeout: 10_000, heartbeatInterval: 1_000, maxWaitTimeInMs: 200 });
    const reader = new DeadLetterReader(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        reader.letters.push({ key: message.key?.toString('utf8') ?? null, headers: headersAsText(message.headers), valueBytes: message.value?.length ?? 0 });
      },
    });
    return reader;
  }

  async waitForKeys(keys: readonly string[], timeoutMs: number): Promise<Map<string, DeadLetter>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = new Map<string, DeadLetter>();
      for (const letter of this.letters) if (letter.key !== null && keys.includes(letter.key) && !found.has(letter.key)) found.set(letter.key, letter);
      if (found.size === keys.length || Date.now() > deadline) return found;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}
