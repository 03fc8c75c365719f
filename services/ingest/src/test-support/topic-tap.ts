import type { Consumer, Kafka } from 'kafkajs';
import { headersAsText, topicNamer, type TopicName } from '@stormhook/kafka';

/** One record as read back from the broker. */
export interface TappedRecord {
  topic: TopicName;
  partition: number;
  key: string | null;
  value: Buffer;
  headers: Record<string, string>;
  /** Broker timestamp (producer create time), epoch ms. */
  timestampMs: number;
}

/**
 * Reads topics from the beginning into memory, for integration tests and the benchmark: a plain
 * kafkajs consumer with its own throw-away group, so it sees what any real reader would see.
 */
export class TopicTap {
  readonly records: TappedRecord[] = [];
  private readonly consumer: Consumer;

  constructor(
    kafka: Kafka,
    private readonly topics: readonly TopicName[],
    private readonly prefix: string | undefined,
    readonly groupId: string,
  ) {
    this.consumer = kafka.consumer({ groupId, sessionTimeout: 10_000, heartbeatInterval: 1_000, maxWaitTimeInMs: 100 });
  }

  async start(): Promise<void> {
    const namer = topicNamer(this.prefix);
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.topics.map((t) => namer.physical(t)), fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const logical = namer.logical(topic);
        if (!logical || message.value === null) return;
        const record: TappedRecord = {
          topic: logical,
          partition,
          key: message.key?.toString('utf8') ?? null,
          value: message.value,
          headers: headersAsText(message.headers),
          timestampMs: Number(message.timestamp),
        };
        this.records.push(record);
        this.onRecord?.(record);
      },
    });
  }

  /** Called for every record as it arrives (the benchmark times them). */
  onRecord?: (record: TappedRecord) => void;

  on(topic: TopicName): TappedRecord[] {
    return this.records.filter((r) => r.topic === topic);
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}

/** Polls until `condition` holds; the error says what never happened. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
