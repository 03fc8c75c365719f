/**
 * The weather stream's benchmark (not a test): GET /v1/stream carrying `rate` strikes/s to `clients`
 * open streams, beside a ceiling in the same run: a bare kafkajs consumer reading the same topic.
 *
 * The gateway runs as its own process (its real dist/main.js) so its CPU can be read from /proc; geo
 * and identity run in this process, as do the publisher, the stream clients and the bare consumer.
 * Strikes go straight onto weather.lightning.v1 (ingest is not what is measured), uniform over a box
 * of central Anatolia inside the customer's plan geography (all of Türkiye), each stamped with the
 * time it is sent: the latency of one copy is its arrival at a client minus that stamp. The bare
 * consumer decodes every record and takes the same difference: the floor any Kafka reader has here.
 *
 * Five quiet seconds first give the gateway's own background CPU, netted out of the figures after.
 * Then two phases at the same rate: no stream open (the replica's consumer reads and skips: the cost
 * of the feature when nobody watches), then `clients` streams. Per phase: strikes published, gateway CPU
 * per strike; for the streams phase also per delivered copy, copies delivered of those expected,
 * streams cut off, and p50/p99/max latency feed -> client beside the bare consumer's and the ratio.
 *
 *   KAFKA_BROKERS=... MONGO_URL=... node test/dist/bench/stream-bench.js
 * Environment: STREAM_CLIENTS (20), STREAM_RATE (1000), STREAM_SECONDS (20), STREAM_IDLE_SECONDS (10).
 */
import { randomUUID } from 'node:crypto';
import * as geo from '@stormhook/geo';
import * as identity from '@stormhook/identity';
import { areaKey } from '@stormhook/ingest';
import { createKafkaClient, createPublisher, EventTypes, TopicNames, topicNamer, type Publisher } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { weatherV1 } from '@stormhook/proto';
import { freePort, machineDescription, reportBench, testInfra } from '@stormhook/testing';
import { spawnService, type ServiceChild } from '../faults/children.js';
import { ApiSession } from '../support/api-session.js';
import { identityTestEnv, testEnv } from '../support/test-env.js';
import { cpuMicrosOf } from './proc-cpu.js';

const CLIENTS = Number(process.env['STREAM_CLIENTS'] ?? 20);
const RATE = Number(process.env['STREAM_RATE'] ?? 1_000);
const SECONDS = Number(process.env['STREAM_SECONDS'] ?? 20);
const IDLE_SECONDS = Number(process.env['STREAM_IDLE_SECONDS'] ?? 10);
const QUIET_SECONDS = 5;
/** Central Anatolia, well inside Türkiye: every strike lies in some province of the plan. */
const BOX = { minLng: 31.0, minLat: 37.8, maxLng: 37.0, maxLat: 40.2 };
const BENCH = 'weather stream';

/** Latencies in milliseconds, appended as they come. */
class Samples {
  private values = new Float64Array(1 << 16);
  count = 0;
  add(ms: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = ms;
  }
  /** p50, p99, max of what was added (milliseconds); NaN when empty. */
  summary(): { p50: number; p99: number; max: number } {
    const sorted = this.values.slice(0, this.count).sort();
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
    return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? Number.NaN };
  }
}

/** One stream reader as a browser's fetch() reads it; only the strike's stamp is read out of each lightning frame. */
class StreamClient {
  received = 0;
  ended: string | undefined;
  private readonly abort = new AbortController();

  constructor(
    private readonly samples: Samples,
    private readonly counting: () => boolean,
  ) {}

  async open(baseUrl: string, token: string): Promise<number> {
    const response = await fetch(`${baseUrl}/v1/stream?kinds=lightning`, { headers: { authorization: `Bearer ${token}` }, signal: this.abort.signal });
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel();
      return response.status;
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let ready!: () => void;
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    void (async () => {
      let text = '';
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += value;
          let cut: number;
          while ((cut = text.indexOf('\n\n')) >= 0) {
            const frame = text.slice(0, cut);
            text = text.slice(cut + 2);
            if (frame.startsWith('event: ready')) ready();
            else if (frame.startsWith('event: lightning')) {
              const stamp = /"timeEpochMillis":(\d+)/.exec(frame);
              if (stamp && this.counting()) {
                this.samples.add(Date.now() - Number(stamp[1]));
                this.received += 1;
              }
            } else if (frame.startsWith('event: end')) this.ended = /"reason":"([A-Z_]+)"/.exec(frame)?.[1] ?? 'end';
          }
        }
      } catch {
        // aborted at the end of the run
      }
    })();
    await isReady;
    return 200;
  }

  close(): void {
    this.abort.abort();
  }
}

/** Sends `rate` strikes a second for `seconds`: every 10 ms, all strikes due by the clock in one send. */
async function publishStrikes(publisher: Publisher, rate: number, seconds: number, random: () => number): Promise<number> {
  const started = Date.now();
  let sent = 0;
  for (;;) {
    const elapsed = Date.now() - started;
    if (elapsed >= seconds * 1000) break;
    const due = Math.floor((elapsed / 1000) * rate) - sent;
    if (due > 0) {
      const now = Date.now();
      const records = Array.from({ length: due }, () => {
        const at = { lng: BOX.minLng + random() * (BOX.maxLng - BOX.minLng), lat: BOX.minLat + random() * (BOX.maxLat - BOX.minLat) };
        const id = randomUUID();
        const event: weatherV1.LightningEvent = {
          eventId: `ltg_${id}`,
          sourceEventId: id,
          revision: { revision: 1, sourceVersion: 0, sourceUpdatedEpochMs: now, ingestedEpochMs: now },
          areaKey: areaKey(at),
          timeEpochMs: now,
          type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
          location: at,
          peakCurrentAmperes: -20_000,
          multiplicity: 1,
        };
        return { key: event.areaKey, value: weatherV1.LightningEvent.encode(event), eventType: EventTypes.LightningEvent };
      });
      await publisher.publish(TopicNames.WeatherLightning, records);
      sent += due;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return sent;
}

function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

async function main(): Promise<void> {
  const { env, topicPrefix, track, stopAll } = testEnv('sbench');
  const logger = createLogger({ service: 'stream-bench', level: 'silent' });
  const kafka = createKafkaClient({ brokers: testInfra().kafkaBrokers, credentials: testInfra().kafkaCredentials, clientId: 'stream-bench', logger });
  const publisher = createPublisher(kafka, { logger, clientId: 'stream-bench', prefix: topicPrefix });
  const bare = kafka.consumer({ groupId: `${topicPrefix}.stream-bench-bare`, maxWaitTimeInMs: 100 });
  const clients: StreamClient[] = [];
  let gateway: ServiceChild | undefined;
  try {
    const geoService = track(await geo.start(geo.loadConfig(env), { logger }));
    const identityService = track(
      await identity.start(identity.loadConfig({ ...env, ...identityTestEnv(), GEO_GRPC_ADDRESS: `127.0.0.1:${geoService.port}` }), { logger }),
    );
    const httpPort = await freePort();
    gateway = await spawnService(
      'gateway',
      'gateway',
      {
        ...env,
        LOG_LEVEL: 'warn',
        HTTP_HOST: '127.0.0.1',
        HTTP_PORT: String(httpPort),
        IDENTITY_GRPC_ADDRESS: `127.0.0.1:${identityService.port}`,
        GEO_GRPC_ADDRESS: `127.0.0.1:${geoService.port}`,
        GATEWAY_STREAMS_PER_ACCOUNT: String(CLIENTS),
      },
      await freePort(),
    );
    const pid = gateway.child.pid!;
    const session = new ApiSession(`http://127.0.0.1:${httpPort}`, 'sbench');
    const customer = await session.user('API_USER', 'PREMIUM_MONTHLY');
    await publisher.connect();

    // The ceiling: a bare consumer of the same topic, decoding each record.
    const bareSamples = new Samples();
    let counting = false;
    await bare.connect();
    await bare.subscribe({ topic: topicNamer(topicPrefix).physical(TopicNames.WeatherLightning), fromBeginning: false });
    const joined = new Promise<void>((resolve) => bare.on(bare.events.GROUP_JOIN, () => resolve()));
    await bare.run({
      eachMessage: async ({ message }) => {
        if (!counting || !message.value) return;
        bareSamples.add(Date.now() - Number(weatherV1.LightningEvent.decode(message.value).timeEpochMs));
      },
    });
    await joined;
    const random = lcg(20261128);

    // Phase 0: nothing published: the gateway's own background (quota sync, consumers' polls), to net out.
    let cpu = cpuMicrosOf([pid]);
    let mark = Date.now();
    await new Promise((resolve) => setTimeout(resolve, QUIET_SECONDS * 1000));
    const backgroundCores = (cpuMicrosOf([pid]) - cpu) / 1e6 / ((Date.now() - mark) / 1000);
    const net = (cpuUs: number, seconds: number) => Math.max(0, cpuUs - backgroundCores * 1e6 * seconds);

    // Phase 1: nobody watches; the replica's consumer reads every strike and skips it.
    cpu = cpuMicrosOf([pid]);
    mark = Date.now();
    const idleSent = await publishStrikes(publisher, RATE, IDLE_SECONDS, random);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const idleCpuUs = net(cpuMicrosOf([pid]) - cpu, (Date.now() - mark) / 1000);

    // Phase 2: `CLIENTS` streams. The provinces may still be loading in the gateway: 503 until then.
    const clientSamples = new Samples();
    for (let i = 0; i < CLIENTS; i++) {
      const client = new StreamClient(clientSamples, () => counting);
      for (let status = 0, tries = 0; status !== 200; tries++) {
        status = await client.open(session.baseUrl, customer.token);
        if (status !== 200 && (status !== 503 || tries > 100)) throw new Error(`GET /v1/stream answered ${status}`);
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      clients.push(client);
    }
    counting = true;
    const processCpu = process.cpuUsage();
    cpu = cpuMicrosOf([pid]);
    const started = Date.now();
    const sent = await publishStrikes(publisher, RATE, SECONDS, random);
    const achieved = sent / ((Date.now() - started) / 1000);
    // Let the last strikes arrive.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const streamCpuUs = net(cpuMicrosOf([pid]) - cpu, (Date.now() - started) / 1000);
    counting = false;
    const benchCpu = process.cpuUsage(processCpu);
    const delivered = clients.reduce((sum, c) => sum + c.received, 0);
    const cutOff = clients.filter((c) => c.ended !== undefined).length;
    const toClient = clientSamples.summary();
    const toBare = bareSamples.summary();
    const wallS = (Date.now() - started) / 1000;

    const lines = [
      `${BENCH}: ${CLIENTS} streams (kinds=lightning), ${RATE} strikes/s offered for ${SECONDS} s (after ${IDLE_SECONDS} s with no stream open)`,
      `machine: ${machineDescription()}`,
      `published: ${sent} strikes, ${round(achieved)}/s achieved`,
      `copies delivered: ${delivered} of ${sent * CLIENTS} expected (${round((100 * delivered) / (sent * CLIENTS), 2)} %); streams cut off: ${cutOff}`,
      `latency feed -> stream client: p50 ${round(toClient.p50)} ms, p99 ${round(toClient.p99)} ms, max ${round(toClient.max)} ms`,
      `latency feed -> bare kafkajs consumer (ceiling): p50 ${round(toBare.p50)} ms, p99 ${round(toBare.p99)} ms, max ${round(toBare.max)} ms (${bareSamples.count} records)`,
      `ratio stream / bare: p50 ${round(toClient.p50 / toBare.p50, 2)}x, p99 ${round(toClient.p99 / toBare.p99, 2)}x`,
      `gateway CPU with nothing published (its background, netted out below): ${round(backgroundCores, 3)} cores`,
      `gateway CPU, no stream open: ${round(idleCpuUs / idleSent)} µs per strike (${round(idleCpuUs / 1e6 / IDLE_SECONDS, 3)} cores)`,
      `gateway CPU, ${CLIENTS} streams: ${round(streamCpuUs / sent)} µs per strike, ${round(streamCpuUs / Math.max(1, delivered), 2)} µs per delivered copy (${round(streamCpuUs / 1e6 / wallS, 3)} cores)`,
      `bench process (publisher, ${CLIENTS} clients, bare consumer, geo, identity) CPU: ${round((benchCpu.user + benchCpu.system) / 1e6 / wallS, 3)} cores`,
    ];
    for (const line of lines) console.log(line);
    const note = `${CLIENTS} streams, ${RATE}/s offered, ${SECONDS} s`;
    reportBench({ bench: BENCH, metric: 'latency feed -> client p50', value: round(toClient.p50), unit: 'ms', note });
    reportBench({ bench: BENCH, metric: 'latency feed -> client p99', value: round(toClient.p99), unit: 'ms', note });
    reportBench({ bench: BENCH, metric: 'bare kafkajs consumer p50 (ceiling)', value: round(toBare.p50), unit: 'ms', note });
    reportBench({ bench: BENCH, metric: 'bare kafkajs consumer p99 (ceiling)', value: round(toBare.p99), unit: 'ms', note });
    reportBench({ bench: BENCH, metric: 'gateway CPU per strike', value: round(streamCpuUs / sent), unit: 'µs', note });
    reportBench({ bench: BENCH, metric: 'gateway CPU per strike, no stream open', value: round(idleCpuUs / idleSent), unit: 'µs', note });
    reportBench({ bench: BENCH, metric: 'copies delivered', value: round((100 * delivered) / (sent * CLIENTS), 2), unit: '%', note });
  } finally {
    for (const client of clients) client.close();
    await bare.disconnect().catch(() => undefined);
    await publisher.disconnect().catch(() => undefined);
    await gateway?.kill('SIGTERM');
    await stopAll();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
