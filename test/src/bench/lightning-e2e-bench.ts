/**
 * End-to-end lightning benchmark (not a test): latency from a strike published on the raw feed topic
 * to the webhook call it causes, at a steady offered rate of strikes, with the matcher holding
 * 100,000 registrations. Every hop is the real one: feed.lightning.v1 -> ingest (validation,
 * de-duplication in the database) -> weather.lightning.v1 -> alarm-matcher (index, notification
 * ledger in the database) -> alarm.triggered.v1 -> notifier (durable delivery in the database) ->
 * HTTP to a local receiver. Ingest, matcher and notifier run as separate processes; geo, identity
 * and the gateway (used to register the timed alarms and their webhook) in this one.
 *
 * The storm: strikes uniform over a 1.0 x 1.4 degree box in central Anatolia (Konya). The 100,000
 * seeded registrations (point alarms of 1-10 km over the rest of the country) keep clear of it, so
 * the strikes exercise the index without matching them, and webhook volume stays what a customer
 * base would see. Inside the box sit 100 probe alarms per rate (1 km radius, registered through the
 * API); one strike in every rate*seconds/100 lands on a probe, and only those are timed.
 *
 *   KAFKA_BROKERS=... MONGO_URL=... node test/dist/bench/lightning-e2e-bench.js [--rates 100:30,1000:10] [--registrations 100000]
 */
import { parseArgs } from 'node:util';
import { seedPointAlarms, type BBox } from '@stormhook/alarm-matcher/bench';
import { createKafkaClient, EventTypes, type EventToPublish } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { feedV1 } from '@stormhook/proto';
import { machineDescription, reportBench } from '@stormhook/testing';
import type { Kafka } from 'kafkajs';
import { sleep, World } from '../faults/world.js';
import { dropPrefixedDatabases } from '../support/databases.js';
import { deletePrefixedTopics } from '../support/topics.js';

const { values } = parseArgs({ options: { rates: { type: 'string' }, registrations: { type: 'string' } } });
/** rate (strikes/s) : seconds of steady load. */
const phases = (values.rates ?? '100:30,1000:10').split(',').map((p) => {
  const [rate, seconds] = p.split(':').map(Number);
  if (!(rate! > 0 && seconds! > 0)) throw new Error(`--rates: "${p}" is not rate:seconds`);
  return { rate: rate!, seconds: seconds! };
});
const registrations = Number(values.registrations ?? 100_000);
const PROBES = 100;
const STORM: BBox = { minLng: 32.2, minLat: 37.6, maxLng: 33.6, maxLat: 38.6 };

interface Probe {
  recipientId: string;
  point: { lat: number; lng: number };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** Metres between two nearby points (equirectangular; exact enough inside one box). */
function distanceM(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const x = (b.lng - a.lng) * Math.cos(((a.lat + b.lat) / 2) * (Math.PI / 180));
  return Math.hypot(x, b.lat - a.lat) * 111_195;
}

/** A grid of probe points 0.1 deg x 0.07 deg apart (11 x 6 km) inside the storm box. */
function probePoints(count: number): Array<{ lat: number; lng: number }> {
  return Array.from({ length: count }, (_, k) => ({ lat: STORM.minLat + 0.05 + (k % 10) * 0.1, lng: STORM.minLng + 0.05 + Math.floor(k / 10) * 0.07 }));
}

function strike(id: string, point: { lat: number; lng: number }): EventToPublish {
  const value = feedV1.LightningStrike.encode({
    sourceEventId: id,
    version: 0,
    updatedEpochMs: 0,
    timeEpochMs: Date.now(),
    type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
    latitude: point.lat,
    longitude: point.lng,
    peakCurrentAmperes: -24_000,
    multiplicity: 2,
  });
  return { key: id, value, eventType: EventTypes.LightningStrike };
}

/** Records the consumer group has not committed yet on `topic`. */
async function lag(kafka: Kafka, groupId: string, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [ends, [committed]] = await Promise.all([admin.fetchTopicOffsets(topic), admin.fetchOffsets({ groupId, topics: [topic] })]);
    const done = new Map((committed?.partitions ?? []).map((p) => [p.partition, Math.max(0, Number(p.offset))]));
    return ends.reduce((sum, p) => sum + Number(p.high) - (done.get(p.partition) ?? 0), 0);
  } finally {
    await admin.disconnect();
  }
}

async function main(): Promise<void> {
  const mongoUrl = process.env['MONGO_URL'];
  if (!process.env['KAFKA_BROKERS'] || !mongoUrl) throw new Error('KAFKA_BROKERS and MONGO_URL must be set (npm run bench sets them)');
  const world = new World('e2e-bench');
  let seeded = { inserted: 0, ms: 0 };
  const startedAt = Date.now();
  const probesNeeded = PROBES * phases.length;
  const points = probePoints(probesNeeded);
  const kafka = createKafkaClient({ brokers: process.env['KAFKA_BROKERS'].split(','), clientId: 'e2e-bench-lag', logger: createLogger({ service: 'e2e-bench', level: 'silent' }) });
  try {
    let matcherStart = 0;
    await world.start(1, {
      ingest: true,
      matcherStartTimeoutMs: 600_000,
      beforeMatchers: async () => {
        const margin = 0.2; // wider than the largest radius (10 km), so no seeded circle reaches into the box
        seeded = await seedPointAlarms({ mongoUrl, dbPrefix: world.dbPrefix, count: registrations, exclude: { minLng: STORM.minLng - margin, minLat: STORM.minLat - margin, maxLng: STORM.maxLng + margin, maxLat: STORM.maxLat + margin } });
        matcherStart = Date.now();
      },
    });
    const matcherStartMs = Date.now() - matcherStart;
    // The seeded registrations must really be in the matcher's index, or the figure would be for an empty one.
    const loadedLine = world.matchers[0]!.lines.find((line) => line.includes('registration index loaded'));
    const indexed = loadedLine ? Number((JSON.parse(loadedLine) as { registrations?: number }).registrations) : 0;
    if (indexed < seeded.inserted) throw new Error(`the matcher indexed ${indexed} registrations, ${seeded.inserted} were seeded`);
    const probes: Probe[] = [];
    for (let k = 0; k < probesNeeded; k++) {
      const recipientId = `probe-${k}`;
      const { registration, status } = await world.registerPoint(recipientId, points[k]!, 1_000);
      if (!registration) throw new Error(`probe registration ${k} failed with ${status}`);
      probes.push({ recipientId, point: points[k]! });
    }
    await sleep(3_000); // the registration broadcast reaches the matcher's index

    const published = new Map<string, number>();
    const latencies = new Map<string, number>();
    world.receiver.onDelivered = (body, atMs) => {
      const payload = JSON.parse(body) as { stage?: string; strikeId?: string };
      const sent = payload.strikeId === undefined ? undefined : published.get(payload.strikeId);
      if (payload.stage === 'START' && sent !== undefined && !latencies.has(payload.strikeId!)) latencies.set(payload.strikeId!, atMs - sent);
    };

    const prefix = world.topicPrefix;
    const feedTopic = `${prefix}.feed.lightning.v1`;
    const weatherTopic = `${prefix}.weather.lightning.v1`;
    console.log('end-to-end lightning benchmark: feed topic -> ingest -> matcher -> notifier -> webhook (real Kafka, real database, separate processes)');
    console.log(`machine: ${machineDescription()}`);
    console.log(`registrations: ${seeded.inserted.toLocaleString('en')} seeded in ${(seeded.ms / 1000).toFixed(1)} s + ${probes.length} probes via the API; matcher indexed ${indexed.toLocaleString('en')} and started in ${(matcherStartMs / 1000).toFixed(1)} s`);

    for (const [phaseIndex, { rate, seconds }] of phases.entries()) {
      const phaseProbes = probes.slice(phaseIndex * PROBES, (phaseIndex + 1) * PROBES);
      const total = rate * seconds;
      const every = Math.floor(total / PROBES);
      let probeNext = 0;
      let sent = 0;
      let maxIngestLag = 0;
      const random = (() => {
        let state = 1234 + phaseIndex;
        return () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
      })();
      const background = (): { lat: number; lng: number } => {
        for (;;) {
          const p = { lat: STORM.minLat + random() * (STORM.maxLat - STORM.minLat), lng: STORM.minLng + random() * (STORM.maxLng - STORM.minLng) };
          if (probes.every((probe) => distanceM(probe.point, p) > 3_000)) return p;
        }
      };
      const t0 = Date.now();
      const lagTimer = setInterval(() => {
        void lag(kafka, `${prefix}.stormhook-ingest`, feedTopic).then((n) => (maxIngestLag = Math.max(maxIngestLag, n)), () => undefined);
      }, 1_000);
      while (sent < total) {
        const due = Math.min(total, Math.floor(((Date.now() - t0) / 1000) * rate));
        const batch: EventToPublish[] = [];
        const probeIds: string[] = [];
        for (; sent < due; sent++) {
          const id = `p${phaseIndex}-s${sent}`;
          // The last record of the phase is a probe, so the phase's drain time is timed too.
          if ((sent + 1) % every === 0 && probeNext < phaseProbes.length) {
            batch.push(strike(id, phaseProbes[probeNext++]!.point));
            probeIds.push(id);
          } else {
            batch.push(strike(id, background()));
          }
        }
        if (batch.length > 0) {
          const at = Date.now();
          for (const id of probeIds) published.set(id, at);
          await world.publish('feed.lightning.v1', batch);
        }
        await sleep(10);
      }
      const publishSeconds = (Date.now() - t0) / 1000;
      const phaseIds = [...published.keys()].filter((id) => id.startsWith(`p${phaseIndex}-`));
      const deadline = Date.now() + 300_000;
      while (Date.now() < deadline && phaseIds.some((id) => !latencies.has(id))) await sleep(250);
      const drainedMs = Math.max(...phaseIds.map((id) => (latencies.get(id) ?? Number.NaN) + published.get(id)!)) - t0;
      clearInterval(lagTimer);
      const ingestLag = await lag(kafka, `${prefix}.stormhook-ingest`, feedTopic);
      const matcherLag = await lag(kafka, `${prefix}.stormhook-alarm-matcher`, weatherTopic);
      const sorted = phaseIds.map((id) => latencies.get(id)).filter((ms): ms is number => ms !== undefined).sort((a, b) => a - b);
      const achieved = Math.round(total / (drainedMs / 1000));
      const bench = `lightning feed to webhook (${registrations.toLocaleString('en')} registrations)`;
      const note = `${total.toLocaleString('en')} strikes offered at ${rate}/s over ${publishSeconds.toFixed(1)} s; ${sorted.length}/${phaseIds.length} probe webhooks arrived; largest ingest backlog ${maxIngestLag.toLocaleString('en')} records; last probe webhook ${(drainedMs / 1000).toFixed(1)} s after the first strike (about ${achieved.toLocaleString('en')} strikes/s through the whole pipeline)`;
      console.log(`${rate} strikes/s for ${seconds} s: webhook latency p50 ${percentile(sorted, 0.5)} ms, p99 ${percentile(sorted, 0.99)} ms, max ${sorted.at(-1)} ms; ${note}; lag left: ingest ${ingestLag}, matcher ${matcherLag}`);
      reportBench({ bench, metric: `p50 latency at ${rate} strikes/s`, value: percentile(sorted, 0.5), unit: 'ms', note });
      reportBench({ bench, metric: `p99 latency at ${rate} strikes/s`, value: percentile(sorted, 0.99), unit: 'ms', note });
      if (sorted.length < phaseIds.length) throw new Error(`${phaseIds.length - sorted.length} probe webhooks of the ${rate}/s phase never arrived`);
    }
    console.log(`total run ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
  } finally {
    await world.stop();
    // The shared development broker and database are left as they were found.
    await dropPrefixedDatabases(mongoUrl, world.dbPrefix).catch((error: unknown) => console.error('cleanup of databases failed', error));
    await deletePrefixedTopics(process.env['KAFKA_BROKERS'].split(','), world.topicPrefix).catch((error: unknown) => console.error('cleanup of topics failed', error));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
