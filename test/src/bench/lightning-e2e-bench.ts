/**
 * End-to-end lightning benchmark (not a test): latency from a strike published on the raw feed topic
 * to the webhook call it causes, at a steady offered rate of strikes, with the matcher holding
 * 100,000 registrations, and whether every stage keeps up. Every hop is the real one:
 * feed.lightning.v1 -> ingest (validation, de-duplication in the database) -> weather.lightning.v1 ->
 * alarm-matcher (index, notification ledger in the database) -> alarm.triggered.v1 -> notifier
 * (durable delivery in the database) -> HTTP to a local receiver. Ingest, matcher and notifier run
 * as separate processes; geo, identity and the gateway (used to register the timed alarms and their
 * webhook) in this one.
 *
 * The storm: strikes uniform over a 1.0 x 1.4 degree box in central Anatolia (Konya). The 100,000
 * seeded registrations (point alarms of 1-10 km over the rest of the country) keep clear of it, so
 * the strikes exercise the index without matching them, and webhook volume stays what a customer
 * base would see. Inside the box sit `probes` probe alarms per phase (1 km radius, registered
 * through the API); the probe strikes are spread evenly through the phase (its last record is one),
 * and only those are timed.
 *
 * Per phase it reports: the publisher's achieved rate against the offered one (sends are batched:
 * all records due by the clock in one send every ~10 ms); probe webhooks received; p50 / p99 / max
 * latency; and the committed-offset lag of the ingest, matcher and notifier consumer groups, sampled
 * every `lag-interval` seconds, with its maximum, its value at the phase's end and its slope (a
 * backlog that grows through the phase means the stage does not keep up). The issue-18 acceptance
 * (1,000 strikes/s for 60 s, every probe received, p99 <= 1 s, no growing backlog) is printed as a
 * verdict line per phase.
 *
 *   KAFKA_BROKERS=... MONGO_URL=... node test/dist/bench/lightning-e2e-bench.js
 *     [--rates 100:30,1000:60] [--registrations 100000] [--probes 100] [--lag-interval 5]
 * Each option also reads an environment variable: E2E_RATES, E2E_REGISTRATIONS, E2E_PROBES,
 * E2E_LAG_INTERVAL (a short run: E2E_RATES=1000:15 E2E_REGISTRATIONS=20000).
 */
import { parseArgs } from 'node:util';
import { seedPointAlarms } from '@stormhook/alarm-matcher/bench';
import { createKafkaClient, TopicNames } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { deletePrefixedTopics, dropPrefixedDatabases, machineDescription, reportBench, testInfra } from '@stormhook/testing';
import { describeStorm, lcg, Storm, STORM_BOX, STORM_CLEARANCE_DEG, widened, type Point } from '../faults/storm.js';
import { sleep, World } from '../faults/world.js';
import { describeLag, LagMonitor, type LagSummary } from './consumer-lag.js';

const { values } = parseArgs({
  options: { rates: { type: 'string' }, registrations: { type: 'string' }, probes: { type: 'string' }, 'lag-interval': { type: 'string' } },
});

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!(value > 0)) throw new Error(`--${name}: "${raw}" is not a positive number`);
  return value;
}

/** rate (strikes/s) : seconds of steady load. */
const phases = (values.rates ?? process.env['E2E_RATES'] ?? '100:30,1000:60').split(',').map((p) => {
  const [rate, seconds] = p.split(':').map(Number);
  if (!(rate! > 0 && seconds! > 0)) throw new Error(`--rates: "${p}" is not rate:seconds`);
  return { rate: rate!, seconds: seconds! };
});
const registrations = Math.round(positive('registrations', values.registrations ?? process.env['E2E_REGISTRATIONS'], 100_000));
const PROBES = Math.round(positive('probes', values.probes ?? process.env['E2E_PROBES'], 100));
const LAG_INTERVAL_MS = positive('lag-interval', values['lag-interval'] ?? process.env['E2E_LAG_INTERVAL'], 5) * 1000;
/** Acceptance of issue 18. */
const P99_LIMIT_MS = 1_000;

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** Metres between two nearby points (equirectangular; exact enough inside one box). */
function distanceM(a: Point, b: Point): number {
  const x = (b.lng - a.lng) * Math.cos(((a.lat + b.lat) / 2) * (Math.PI / 180));
  return Math.hypot(x, b.lat - a.lat) * 111_195;
}

/** A grid of probe points inside the storm box, 10 rows x as many columns as needed. */
function probePoints(count: number): Point[] {
  const columns = Math.ceil(count / 10);
  const dLng = (STORM_BOX.maxLng - STORM_BOX.minLng - 0.1) / Math.max(1, columns);
  return Array.from({ length: count }, (_, k) => ({ lat: STORM_BOX.minLat + 0.05 + (k % 10) * 0.1, lng: STORM_BOX.minLng + 0.05 + Math.floor(k / 10) * dLng }));
}

async function main(): Promise<void> {
  const mongoUrl = process.env['MONGO_URL'];
  const brokers = process.env['KAFKA_BROKERS']?.split(',');
  if (!brokers || !mongoUrl) throw new Error('KAFKA_BROKERS and MONGO_URL must be set (npm run bench sets them)');
  const world = new World('e2e-bench');
  let seeded = { inserted: 0, ms: 0 };
  const startedAt = Date.now();
  const probesNeeded = PROBES * phases.length;
  const points = probePoints(probesNeeded);
  const kafka = createKafkaClient({
    brokers,
    credentials: testInfra().kafkaCredentials,
    clientId: 'e2e-bench-lag',
    logger: createLogger({ service: 'e2e-bench', level: 'silent' }),
  });
  let lag: LagMonitor | undefined;
  let failures = 0;
  try {
    let matcherStart = 0;
    await world.start(1, {
      ingest: true,
      matcherStartTimeoutMs: 600_000,
      beforeMatchers: async () => {
        seeded = await seedPointAlarms({ mongoUrl, dbPrefix: world.dbPrefix, count: registrations, exclude: widened(STORM_BOX, STORM_CLEARANCE_DEG) });
        matcherStart = Date.now();
      },
    });
    const matcherStartMs = Date.now() - matcherStart;
    // The seeded registrations must really be in the matcher's index, or the figure would be for an empty one.
    const loadedLine = world.matchers[0]!.lines.find((line) => line.includes('registration index loaded'));
    const indexed = loadedLine ? Number((JSON.parse(loadedLine) as { registrations?: number }).registrations) : 0;
    if (indexed < seeded.inserted) throw new Error(`the matcher indexed ${indexed} registrations, ${seeded.inserted} were seeded`);
    const probes: Point[] = [];
    for (let k = 0; k < probesNeeded; k++) {
      const { registration, status } = await world.registerPoint(`probe-${k}`, points[k]!, 1_000);
      if (!registration) throw new Error(`probe registration ${k} failed with ${status}`);
      probes.push(points[k]!);
    }
    await sleep(3_000); // the registration broadcast reaches the matcher's index

    const latencies = new Map<string, number>();
    let storm: Storm | undefined;
    world.receiver.onDelivered = (body, atMs) => {
      const payload = JSON.parse(body) as { stage?: string; strikeId?: string };
      const sent = payload.strikeId === undefined ? undefined : storm?.publishedAt.get(payload.strikeId);
      if (payload.stage === 'START' && sent !== undefined && !latencies.has(payload.strikeId!)) latencies.set(payload.strikeId!, atMs - sent);
    };
    const groups = world.lagGroups();
    lag = new LagMonitor(kafka, groups, LAG_INTERVAL_MS);
    await lag.start();

    console.log('end-to-end lightning benchmark: feed topic -> ingest -> matcher -> notifier -> webhook (real Kafka, real database, separate processes)');
    console.log(`machine: ${machineDescription()}`);
    console.log(
      `registrations: ${seeded.inserted.toLocaleString('en')} seeded in ${(seeded.ms / 1000).toFixed(1)} s + ${probes.length} probes via the API; matcher indexed ${indexed.toLocaleString('en')} and started in ${(matcherStartMs / 1000).toFixed(1)} s`,
    );

    for (const [phaseIndex, { rate, seconds }] of phases.entries()) {
      const phaseProbes = probes.slice(phaseIndex * PROBES, (phaseIndex + 1) * PROBES);
      const random = lcg(1234 + phaseIndex);
      const background = (): Point => {
        for (;;) {
          const p = {
            lat: STORM_BOX.minLat + random() * (STORM_BOX.maxLat - STORM_BOX.minLat),
            lng: STORM_BOX.minLng + random() * (STORM_BOX.maxLng - STORM_BOX.minLng),
          };
          // Every probe of every phase stays clear: only its own strike may reach it.
          if (probes.every((probe) => distanceM(probe, p) > 3_000)) return p;
        }
      };
      storm = new Storm({
        rate,
        seconds,
        targets: phaseProbes.map((point) => ({ point })),
        idPrefix: `p${phaseIndex}-${Date.now().toString(36)}`,
        background,
        publish: async (events) => void (await world.publish(TopicNames.FeedLightning, events)),
      });
      const phaseStart = Date.now();
      const stats = await storm.run();
      const phaseEnd = Date.now();
      const endSample = await lag.sample();
      const ids = storm.targetIds;
      const deadline = Date.now() + 300_000;
      while (Date.now() < deadline && ids.some((id) => !latencies.has(id))) await sleep(250);
      const drainedS = (Math.max(...ids.map((id) => (latencies.get(id) ?? Number.NaN) + storm!.publishedAt.get(id)!)) - phaseEnd) / 1000;
      const sorted = ids
        .map((id) => latencies.get(id))
        .filter((ms): ms is number => ms !== undefined)
        .sort((a, b) => a - b);
      // Growth within the phase: a stage falling behind by more than 2 % of the offered rate, and
      // holding more than a second's worth of records at the phase's end.
      const summaries: LagSummary[] = groups.map((g) =>
        lag!.summary(g.name, { fromMs: phaseStart, toMs: endSample.atMs, growthPerSecond: 0.02 * rate, floor: rate }),
      );
      const p50 = percentile(sorted, 0.5);
      const p99 = percentile(sorted, 0.99);
      const max = sorted.at(-1) ?? Number.NaN;
      const growing = summaries.filter((s) => s.grows).map((s) => s.name);
      const keptUp = stats.achievedRate >= 0.98 * rate;
      const bench = `lightning feed to webhook (${registrations.toLocaleString('en')} registrations)`;
      const lagNote = summaries.map(describeLag).join('; ');
      const note = `${describeStorm(stats)}; ${sorted.length}/${ids.length} probe webhooks; last probe webhook ${drainedS.toFixed(1)} s after the phase ended; consumer lag over the phase (sampled every ${LAG_INTERVAL_MS / 1000} s): ${lagNote}`;
      console.log(`${rate} strikes/s for ${seconds} s: webhook latency p50 ${p50} ms, p99 ${p99} ms, max ${max} ms; ${note}`);
      const verdict = sorted.length === ids.length && p99 <= P99_LIMIT_MS && growing.length === 0 && keptUp;
      console.log(
        `acceptance at ${rate}/s for ${seconds} s: ${verdict ? 'MET' : 'NOT MET'} (every probe received: ${sorted.length === ids.length}; p99 ${p99} ms <= ${P99_LIMIT_MS}: ${p99 <= P99_LIMIT_MS}; growing backlog: ${growing.length ? growing.join(', ') : 'none'}; publisher kept up: ${keptUp})`,
      );
      reportBench({ bench, metric: `p50 latency at ${rate} strikes/s`, value: p50, unit: 'ms', note });
      reportBench({
        bench,
        metric: `p99 latency at ${rate} strikes/s`,
        value: p99,
        unit: 'ms',
        note: `acceptance ${verdict ? 'met' : 'NOT met'} at ${rate}/s for ${seconds} s`,
      });
      reportBench({ bench, metric: `max latency at ${rate} strikes/s`, value: max, unit: 'ms' });
      reportBench({ bench, metric: `probe webhooks received at ${rate} strikes/s`, value: sorted.length, unit: `of ${ids.length}` });
      reportBench({
        bench,
        metric: `publisher rate at ${rate} strikes/s offered`,
        value: Math.round(stats.achievedRate),
        unit: 'strikes/s',
        note: `at most ${stats.maxBehind} records behind schedule`,
      });
      for (const s of summaries) {
        reportBench({
          bench,
          metric: `${s.name} consumer lag, max at ${rate} strikes/s`,
          value: s.max,
          unit: 'records',
          note: `last ${s.last ?? '-'}, slope ${Math.round(s.slopePerSecond)}/s${s.grows ? ', GROWING' : ''}`,
        });
      }
      if (sorted.length < ids.length) failures++;
    }
    console.log(`total run ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
    if (failures > 0) throw new Error(`probe webhooks of ${failures} phase(s) never arrived`);
  } finally {
    await lag?.stop();
    await world.stop();
    // The shared development broker and database are left as they were found.
    await dropPrefixedDatabases(mongoUrl, world.dbPrefix).catch((error: unknown) => console.error('cleanup of databases failed', error));
    await deletePrefixedTopics(brokers, world.topicPrefix).catch((error: unknown) => console.error('cleanup of topics failed', error));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
