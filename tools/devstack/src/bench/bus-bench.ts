/**
 * The bus benchmark (not a test): our kafkajs publisher and consumer beside Kafka's own
 * ProducerPerformance and ConsumerPerformance tools, on the same broker in the same run, with the
 * same delivery guarantees (idempotent producer, acks=all). Prints both and their ratio.
 *
 *   KAFKA_BROKERS=127.0.0.1:9092 node tools/devstack/dist/bench/bus-bench.js [records=100000]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createConsumer,
  createKafkaClient,
  createPublisher,
  DEFAULT_COMMIT_POLICY,
  deleteTopics,
  ensureTopics,
  EventTypes,
  Outcomes,
  topicNamer,
  TopicNames,
  topicSpec,
} from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { machineDescription, reportBench, testInfra, uniqueName } from '@stormhook/testing';
import { exec } from '../infra/exec.js';
import { installKafkaTools } from '../infra/kafka.js';

const RECORD_BYTES = 256;
const BATCH = 500;
/** Publish calls of BATCH records outstanding at once. */
const CALLS_IN_FLIGHT = 4;
const TOPIC = TopicNames.WeatherLightning;

async function kafkajsRun(brokers: string[], prefix: string, count: number) {
  const logger = createLogger({ service: 'bus-bench', level: 'warn' });
  const kafka = createKafkaClient({ brokers, credentials: testInfra().kafkaCredentials, clientId: 'bus-bench', logger });
  await ensureTopics(kafka, [topicSpec(TOPIC), topicSpec(TopicNames.DeadLetter)], { prefix });
  const publisher = createPublisher(kafka, { logger, clientId: 'bus-bench', prefix });
  await publisher.connect();
  const value = randomBytes(RECORD_BYTES);
  const produceStart = performance.now();
  // Calls in flight, as ProducerPerformance sends without waiting for each acknowledgement and as the
  // pipeline's stages publish (many records in flight): what arrives during a request goes in the next.
  const inFlight = new Set<Promise<unknown>>();
  for (let sent = 0; sent < count; sent += BATCH) {
    const events = Array.from({ length: Math.min(BATCH, count - sent) }, (_, i) => ({
      key: `k${(sent + i) % 64}`,
      value,
      eventType: EventTypes.LightningEvent,
    }));
    const call = publisher.publish(TOPIC, events).finally(() => inFlight.delete(call));
    inFlight.add(call);
    if (inFlight.size >= CALLS_IN_FLIGHT) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  const produceSeconds = (performance.now() - produceStart) / 1000;

  let received = 0;
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  const consumer = createConsumer({
    kafka,
    groupId: uniqueName('bus-bench'),
    topics: [TOPIC],
    publisher,
    logger,
    prefix,
    partitionsConsumedConcurrently: 6,
    handler: async () => {
      if (++received === count) done();
      return Outcomes.ok();
    },
  });
  const consumeStart = performance.now();
  await consumer.start();
  await all;
  const consumeSeconds = (performance.now() - consumeStart) / 1000;
  await consumer.stop();
  await publisher.disconnect();
  return { kafka, produce: count / produceSeconds, consume: count / consumeSeconds };
}

/** "100000 records sent, 51234.5 records/sec (12.51 MB/sec), ..." */
function producerRate(output: string): number {
  const match = /records sent, ([\d.]+) records\/sec/.exec(output);
  if (!match?.[1]) throw new Error(`unexpected ProducerPerformance output:\n${output}`);
  return Number(match[1]);
}

/** The CSV line: start, end, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, ... */
function consumerRate(output: string): number {
  const line = output
    .trim()
    .split('\n')
    .filter((l) => /^\d{4}-/.test(l))
    .at(-1);
  const rate = line?.split(',')[5];
  if (!rate) throw new Error(`unexpected ConsumerPerformance output:\n${output}`);
  return Number(rate);
}

/** The Java tools log in as the same principal as the kafkajs side, so both pay for SASL alike. */
function javaClientConfig(): string {
  const { username, password } = testInfra().kafkaCredentials;
  const file = join(mkdtempSync(join(tmpdir(), 'bus-bench-')), 'client.properties');
  const lines = [
    'security.protocol=SASL_PLAINTEXT',
    'sasl.mechanism=SCRAM-SHA-512',
    `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="${username}" password="${password}";`,
  ];
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  return file;
}

async function javaRun(libs: string, brokers: string[], topic: string, count: number) {
  const classpath = `${libs}/*`;
  const clientConfig = javaClientConfig();
  const produced = await exec('java', [
    '-Xmx512m',
    '-cp',
    classpath,
    'org.apache.kafka.tools.ProducerPerformance',
    '--topic',
    topic,
    '--num-records',
    String(count),
    '--record-size',
    String(RECORD_BYTES),
    '--throughput',
    '-1',
    '--producer.config',
    clientConfig,
    '--producer-props',
    `bootstrap.servers=${brokers.join(',')}`,
    'acks=all',
    'enable.idempotence=true',
    'max.in.flight.requests.per.connection=1',
  ]);
  const consumed = await exec('java', [
    '-Xmx512m',
    '-cp',
    classpath,
    'org.apache.kafka.tools.ConsumerPerformance',
    '--consumer.config',
    clientConfig,
    '--bootstrap-server',
    brokers.join(','),
    '--topic',
    topic,
    '--messages',
    String(count),
    '--group',
    uniqueName('bus-bench-java'),
    '--timeout',
    '60000',
  ]);
  return { produce: producerRate(produced), consume: consumerRate(consumed) };
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 100_000);
  const { kafkaBrokers } = testInfra();
  const prefix = uniqueName('bus-bench');
  const libs = await installKafkaTools((m) => console.log(m));
  const ours = await kafkajsRun(kafkaBrokers, prefix, count);
  // The Java tools write to a topic of their own under the same prefix, so both consume `count` records.
  const javaTopic = `${prefix}.java-perf`;
  const admin = ours.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: javaTopic, numPartitions: topicSpec(TOPIC).partitions }], waitForLeaders: true });
  await admin.disconnect();
  const java = await javaRun(libs, kafkaBrokers, javaTopic, count);
  await deleteTopics(ours.kafka, [TOPIC, TopicNames.DeadLetter], { prefix });
  const cleanup = ours.kafka.admin();
  await cleanup.connect();
  await cleanup.deleteTopics({ topics: [javaTopic] }).catch(() => undefined);
  await cleanup.disconnect();

  const fmt = (n: number) => Math.round(n).toLocaleString('en');
  console.log(
    [
      `machine     ${machineDescription()}`,
      `records     ${count} of ${RECORD_BYTES} bytes, ${topicSpec(TOPIC).partitions} partitions, idempotent, acks=all (topic ${topicNamer(prefix).physical(TOPIC)})`,
      `produce     kafkajs publisher ${fmt(ours.produce)}/s, ProducerPerformance ${fmt(java.produce)}/s, ratio ${(ours.produce / java.produce).toFixed(2)}`,
      `consume     kafkajs consumer ${fmt(ours.consume)}/s, ConsumerPerformance ${fmt(java.consume)}/s, ratio ${(ours.consume / java.consume).toFixed(2)}`,
    ].join('\n'),
  );
  const bench = "Kafka bus: our kafkajs layer beside Kafka's own perf tools";
  reportBench({
    bench,
    metric: 'produce, kafkajs publisher',
    value: Math.round(ours.produce),
    unit: 'records/s',
    note: `calls of ${BATCH} records, ${CALLS_IN_FLIGHT} outstanding, ${RECORD_BYTES} B, acks=all`,
  });
  reportBench({ bench, metric: 'produce, ProducerPerformance', value: Math.round(java.produce), unit: 'records/s' });
  reportBench({ bench, metric: 'produce ratio kafkajs/Java', value: ours.produce / java.produce, unit: 'ratio' });
  reportBench({
    bench,
    metric: 'consume, kafkajs consumer',
    value: Math.round(ours.consume),
    unit: 'records/s',
    note: `periodic commits per partition (every ${DEFAULT_COMMIT_POLICY.everyMs} ms or ${DEFAULT_COMMIT_POLICY.everyRecords} records)`,
  });
  reportBench({ bench, metric: 'consume, ConsumerPerformance', value: Math.round(java.consume), unit: 'records/s' });
  reportBench({ bench, metric: 'consume ratio kafkajs/Java', value: ours.consume / java.consume, unit: 'ratio' });
}

await main();
