import assert from 'node:assert/strict';
import type { Kafka, Producer, ProducerBatch } from 'kafkajs';
import { createLogger } from '@stormhook/logger';
import { isSequenceDesync, ProducerSession } from './producer-session.js';

/** A kafkajs protocol error as the client throws it: a type naming the broker's error code. */
function protocolError(type: string): Error {
  return Object.assign(new Error(`broker said ${type}`), { name: 'KafkaJSProtocolError', type, retriable: false });
}

interface FakeProducer {
  batches: ProducerBatch[];
  connects: number;
  disconnects: number;
}

/** Producers that fail their first sends with the given errors, in order, then accept. */
function fakeKafka(failures: Error[]): { kafka: Kafka; producers: FakeProducer[] } {
  const producers: FakeProducer[] = [];
  const kafka = {
    producer: () => {
      const state: FakeProducer = { batches: [], connects: 0, disconnects: 0 };
      producers.push(state);
      return {
        connect: async () => void state.connects++,
        disconnect: async () => void state.disconnects++,
        sendBatch: async (batch: ProducerBatch) => {
          const failure = failures.shift();
          if (failure) throw failure;
          state.batches.push(batch);
          return [];
        },
      } as unknown as Producer;
    },
  } as unknown as Kafka;
  return { kafka, producers };
}

const logger = createLogger({ service: 'kafka-test', level: 'silent' });
const batch = { topicMessages: [{ topic: 't', messages: [{ key: 'k', value: 'v' }] }] };

describe('ProducerSession', () => {
  it('replaces a producer whose sequences the broker refused and sends the request again through the new one', async () => {
    const { kafka, producers } = fakeKafka([protocolError('OUT_OF_ORDER_SEQUENCE_NUMBER')]);
    const session = new ProducerSession(kafka, logger);
    await session.sendBatch(batch);
    assert.equal(producers.length, 2, 'a new producer (a new producer id)');
    assert.deepEqual([producers[0]!.batches.length, producers[0]!.disconnects], [0, 1], 'the old one sent nothing and was let go');
    assert.equal(producers[1]!.connects, 1);
    assert.deepEqual(producers[1]!.batches, [{ ...batch, acks: -1 }], 'the same records, with acks from every in-sync replica');
    await session.sendBatch(batch);
    assert.equal(producers[1]!.batches.length, 2, 'later requests go through the new producer');
  });

  it('passes other failures on to the caller, keeping its producer', async () => {
    const { kafka, producers } = fakeKafka([protocolError('REQUEST_TIMED_OUT')]);
    const session = new ProducerSession(kafka, logger);
    await assert.rejects(session.sendBatch(batch), /REQUEST_TIMED_OUT/);
    assert.equal(producers.length, 1);
    await session.sendBatch(batch);
    assert.equal(producers[0]!.batches.length, 1);
  });

  it('gives up after one new producer: a second refusal reaches the caller', async () => {
    const { kafka, producers } = fakeKafka([protocolError('OUT_OF_ORDER_SEQUENCE_NUMBER'), protocolError('OUT_OF_ORDER_SEQUENCE_NUMBER')]);
    const session = new ProducerSession(kafka, logger);
    await assert.rejects(session.sendBatch(batch), /OUT_OF_ORDER_SEQUENCE_NUMBER/);
    assert.equal(producers.length, 2);
  });

  it('recognises the refusal also when wrapped by the retrier', () => {
    const wrapped = Object.assign(new Error('retries exhausted'), { originalError: protocolError('UNKNOWN_PRODUCER_ID') });
    assert.equal(isSequenceDesync(wrapped), true);
    assert.equal(isSequenceDesync(protocolError('NOT_LEADER_OR_FOLLOWER')), false);
    assert.equal(isSequenceDesync('OUT_OF_ORDER_SEQUENCE_NUMBER'), false);
  });
});
