import { Partitioners, type Kafka, type Producer, type ProducerBatch } from 'kafkajs';
import type { Logger } from '@stormhook/logger';
import { errorChain } from './error-chain.js';

/**
 * Broker answers after which an idempotent producer can never send to that partition again: kafkajs
 * keeps the sequence numbers the broker refused (it does not reset them, see tulios/kafkajs#598 and
 * KAFKA-14359), so every later request fails the same way. Only a new producer id gets past them.
 */
const DESYNCED = new Set(['OUT_OF_ORDER_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID', 'INVALID_PRODUCER_EPOCH']);

export function isSequenceDesync(error: unknown): boolean {
  for (const e of errorChain(error)) if (DESYNCED.has(String((e as { type?: unknown }).type))) return true;
  return false;
}

/**
 * The publisher's idempotent producer, replaced by a new one (a new producer id, sequences from 0)
 * when the broker says the old one's sequences are out of step, and the request sent once more
 * through it. The refused request was not appended, so resending loses nothing; a request before it
 * that was appended without its answer arriving may now be appended twice (at-least-once, which
 * consumers absorb by event id).
 */
export class ProducerSession {
  private producer: Producer;
  private connecting: Promise<void> | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly logger: Logger,
  ) {
    this.producer = this.newProducer();
  }

  private newProducer(): Producer {
    // Idempotent with one request in flight: retries can neither duplicate nor reorder records.
    // The default partitioner is the Java client's murmur2, so a key lands where any other client puts it.
    return this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
  }

  get connected(): boolean {
    return this.connecting !== undefined;
  }

  connect(): Promise<void> {
    this.connecting ??= this.producer.connect().catch((error: unknown) => {
      this.connecting = undefined; // let the next call try again
      throw error;
    });
    return this.connecting;
  }

  /** Sends with acks -1 (every in-sync replica has the records before the broker answers). */
  async sendBatch(batch: Omit<ProducerBatch, 'acks'>): Promise<void> {
    await this.connect();
    try {
      await this.producer.sendBatch({ ...batch, acks: -1 });
    } catch (error) {
      if (!isSequenceDesync(error)) throw error;
      this.logger.warn({ err: error }, 'the broker refused the producer sequence; sending again with a new producer id');
      await this.replace();
      await this.connect();
      await this.producer.sendBatch({ ...batch, acks: -1 });
    }
  }

  private async replace(): Promise<void> {
    const old = this.producer;
    this.producer = this.newProducer();
    this.connecting = undefined;
    await old.disconnect().catch((error: unknown) => this.logger.debug({ err: error }, 'the desynchronised producer did not disconnect cleanly'));
  }

  async disconnect(): Promise<void> {
    if (this.connecting === undefined) return;
    this.connecting = undefined;
    await this.producer.disconnect();
  }
}
