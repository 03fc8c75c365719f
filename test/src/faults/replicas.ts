import type { Admin } from 'kafkajs';
import { createKafkaClient } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { testInfra } from '@stormhook/testing';
import { compare, ReceivedCallbacks } from '../bench/city-callbacks.js';
import { planCityStorm, publishRevisions, seedCityStorm } from '../bench/city-storm-setup.js';
import { describeLag, LagMonitor } from '../bench/consumer-lag.js';
import { loadIstanbul } from '../bench/istanbul.js';
import { diedByItself, type ServiceChild } from './children.js';
import { describeHandover, inFlightDeliveries, watchHandover, type Handover } from './handover.js';
import { dumpLogs, verdict, type ScenarioResult } from './scenarios.js';
import { describeStorm } from './storm.js';
import { sleep, World } from './world.js';

/** The city storm with replicas (`npm run faults -- --only replicas`); each also reads REPLICAS_<NAME>. */
export interface ReplicaSettings {
  /** Registrations in İstanbul (REPLICAS_CITY). */
  city: number;
  /** Lightning point alarms elsewhere (REPLICAS_ELSEWHERE). */
  elsewhere: number;
  /** How long the storm crosses the city (REPLICAS_SECONDS). */
  seconds: number;
  /** Strikes a second over the city and in central Anatolia. */
  cityRate: number;
  backgroundRate: number;
  /** When the kills hit, as a fraction of the storm (its peak: the cells over the city's middle). */
  killAt: number;
  /** How long the killed replicas stay down (REPLICAS_DOWN_SECONDS). */
  downSeconds: number;
  /** The longest wait for the last callback after the storm (REPLICAS_DRAIN_SECONDS). */
  drainSeconds: number;
}

export const DEFAULT_REPLICAS: ReplicaSettings = {
  city: 2_000,
  elsewhere: 8_000,
  seconds: 180,
  cityRate: 5,
  backgroundRate: 50,
  killAt: 0.4,
  downSeconds: 60,
  drainSeconds: 300,
};

const STAGES = ['ingest', 'matcher', 'notifier', 'gateway'] as const;
type Stage = (typeof STAGES)[number];

/** API reads during the storm: answered by status, and those that failed over to the other gateway. */
class ApiLoad {
  readonly statuses = new Map<number, number>();
  /** When each read that was not answered 200 was sent, epoch ms. */
  readonly failedAt: number[] = [];
  private running = true;
  private done: Promise<void> | undefined;

  constructor(private readonly world: World) {}

  start(intervalMs: number): void {
    this.done = (async () => {
      while (this.running) {
        const sentAt = Date.now();
        const status = await this.world.readOwnUser();
        this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
        if (status !== 200) this.failedAt.push(sentAt);
        await sleep(intervalMs);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  get total(): number {
    return [...this.statuses.values()].reduce((a, b) => a + b, 0);
  }

  get failed(): number {
    return this.failedAt.length;
  }
}

/**
 * Issue 27 item 2. The city storm (bench/city-storm-setup.ts: registrations in İstanbul and elsewhere,
 * a squall line of cells, rain areas and strikes) through 2 replicas each of ingest, alarm-matcher,
 * notifier and gateway. At the storm's peak one replica of each stage gets kill -9 at once (the first
 * of each, the one the gRPC callers were connected to); a minute later each is started again. Every
 * callback the filters ask for must arrive (0 lost), no notification may be sent under a second id,
 * API reads through the gateways must all be answered, and no process may die by itself. Reported:
 * how long each stage's consumer group took to consume again the killed member's partitions, the
 * killed notifier's in-flight deliveries and when its survivor sent them, and the duplicates by kind.
 */
export async function replicaKill(settings: ReplicaSettings): Promise<ScenarioResult> {
  const title = `2 replicas of each stage, kill -9 of one of each at the peak, back after ${settings.downSeconds} s (city storm)`;
  const world = new World('replicas');
  const logger = createLogger({ service: 'faults', level: 'silent' });
  const infra = testInfra();
  const kafka = createKafkaClient({ brokers: infra.kafkaBrokers, credentials: infra.kafkaCredentials, clientId: 'faults-replicas', logger });
  const admin: Admin = kafka.admin();
  const istanbul = loadIstanbul();
  let lag: LagMonitor | undefined;
  const api = new ApiLoad(world);
  try {
    let seedNote = '';
    await world.start(2, {
      ingest: true,
      replicas: { ingest: 2, notifier: 2, gateway: 2 },
      matcherStartTimeoutMs: 300_000,
      beforeMatchers: async () => void (seedNote = await seedCityStorm(world, infra.mongoUrl, settings, istanbul)),
    });
    await admin.connect();
    const plan = await planCityStorm(world, infra.mongoUrl, istanbul, settings);
    const received = new ReceivedCallbacks();
    world.receiver.onDelivered = (body, atMs) => received.take(body, atMs);
    lag = new LagMonitor(kafka, world.lagGroups(), 5_000);
    await lag.start();
    api.start(200);

    const publishedAt = new Map<string, number>();
    const stormStart = Date.now();
    const storming = plan.storm.run();
    storming.catch(() => undefined); // awaited below
    const revisions = publishRevisions(world, plan.system, stormStart, publishedAt);
    revisions.catch(() => undefined);

    // The peak: kill -9 the first replica of every stage at once.
    await sleep(settings.seconds * 1000 * settings.killAt);
    const victims: Record<Stage, ServiceChild> = {
      ingest: world.ingests[0]!,
      matcher: world.matchers[0]!,
      notifier: world.notifiers[0]!,
      gateway: world.gateways[0]!,
    };
    const killAtMs = Date.now();
    const killed = await Promise.all(STAGES.map((stage) => victims[stage].kill('SIGKILL')));
    const handovers = Promise.all(world.lagGroups().map((g) => watchHandover(admin, g, killAtMs, (settings.downSeconds + 120) * 1000)));
    const inFlight = await inFlightDeliveries(infra.mongoUrl, world.dbPrefix, 'faults-notifier-1', killAtMs);

    // A minute later: each back at its address (the matcher reloads the registration index first).
    await sleep(Math.max(0, killAtMs + settings.downSeconds * 1000 - Date.now()));
    const restartAtMs = Date.now();
    const restartS: Record<Stage, number> = { ingest: 0, matcher: 0, notifier: 0, gateway: 0 };
    const timed = async (stage: Stage, start: () => Promise<unknown>) => {
      const t = Date.now();
      await start();
      restartS[stage] = (Date.now() - t) / 1000;
    };
    await Promise.all([
      timed('ingest', () => world.startIngest(0)),
      timed('matcher', () => world.startMatcher(world.matcherPort(0), 300_000, 0)),
      timed('notifier', () => world.startNotifier(0)),
      timed('gateway', () => world.startGateway(0)),
    ]);

    const stats = await storming;
    await revisions;
    const stormEnd = Date.now();
    for (const [id, at] of plan.storm.publishedAt) publishedAt.set(id, at);
    const drainBy = Date.now() + settings.drainSeconds * 1000;
    while (Date.now() < drainBy && received.distinct < plan.expected.total) await sleep(1_000);
    await sleep(5_000); // late duplicates
    await api.stop();
    const handed: Handover[] = await handovers;

    const result = compare(plan.expected, received, publishedAt);
    const latencies = result.timed.map((x) => x.latencyMs).sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? Number.NaN;

    // The killed notifier's work: what it held and had not sent when it died, and when the survivor sent it.
    const unsent = inFlight.filter((id) => (received.firstAt.get(id) ?? Infinity) >= killAtMs);
    const sentAfter = unsent.map((id) => received.firstAt.get(id)).filter((at): at is number => at !== undefined);
    const lastSentS = sentAfter.length > 0 ? (Math.max(...sentAfter) - killAtMs) / 1000 : undefined;

    // Duplicates: a call repeated across the kill (first sent before it, or by the dying replica, and
    // sent again after it: its outcome was never recorded) is at-least-once; any other is counted apart.
    const isAcross = (r: { firstAtMs: number; atMs: number }) => r.firstAtMs <= killAtMs + 1_000 && r.atMs >= killAtMs;
    const across = received.repeats.filter(isAcross).length;
    const others = received.repeats.filter((r) => !isAcross(r));
    const range = (values: number[]) => (values.length === 0 ? '-' : `${Math.min(...values).toFixed(1)} to ${Math.max(...values).toFixed(1)} s`);
    const othersNote =
      others.length === 0
        ? ''
        : ` (first sent ${range(others.map((r) => (r.firstAtMs - killAtMs) / 1000))} after the kill, repeated ${range(others.map((r) => (r.atMs - r.firstAtMs) / 1000))} later)`;
    // The notifiers' own account of work they took over from another instance (holds run out).
    const takeovers = world.notifiers.map((c) => `${c.name} ${c.lines.filter((line) => line.includes('took over the fresh deliveries')).length}`).join(', ');
    // A read in flight on the gateway the kill took has no answer (a client retries it); any other failure counts.
    const cutByKill = api.failedAt.filter((at) => at <= killAtMs && at >= killAtMs - 15_000).length;
    const apiOk = api.failed === cutByKill;

    const died = world.children().filter(diedByItself);
    const notes = [
      `registrations: ${seedNote}`,
      `storm: ${describeStorm(stats)}; ${plan.system.revisions.length} tracked revisions`,
      `killed at +${((killAtMs - stormStart) / 1000).toFixed(0)} s (${STAGES.map((s, i) => `${s} ${String(killed[i])}`).join(', ')}); started again ${((restartAtMs - killAtMs) / 1000).toFixed(0)} s later, up in ${STAGES.map((s) => `${s} ${restartS[s].toFixed(1)} s`).join(', ')}`,
      `callbacks: ${result.expected.toLocaleString('en')} expected, ${result.delivered.toLocaleString('en')} received, ${result.missing} lost, ${result.unexpected} under a second notification id`,
      `latency feed record -> callback p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${latencies.at(-1) ?? Number.NaN} ms; last callback ${((Math.max(...received.arrivals, stormEnd) - stormEnd) / 1000).toFixed(1)} s after the storm`,
      `partitions handed over (committed offsets moving again on every partition with work): ${handed.map(describeHandover).join(', ')}`,
      `the killed notifier held ${inFlight.length} deliveries under unexpired holds or leases, ${unsent.length} of them not yet received at the kill; ${sentAfter.length} of those sent by the survivor or the restarted replica${lastSentS === undefined ? '' : `, the last ${lastSentS.toFixed(1)} s after the kill`} (lease ${world.notifierLeaseMs / 1000} s)`,
      `duplicates: ${received.repeats.length} calls repeated under the same notification id: ${across} across the kill (sent, outcome not recorded, sent again: at-least-once), ${others.length} otherwise${othersNote}; hold take-over log lines per notifier: ${takeovers}`,
      `API reads through the gateways during the storm: ${api.total} sent, ${api.failed} not answered 200 (${JSON.stringify(Object.fromEntries(api.statuses))}; ${cutByKill} of them in flight on the killed gateway), ${world.gatewayFailovers} moved to the other gateway after a refused connection`,
      `lag: ${world
        .lagGroups()
        .map((g) => describeLag(lag!.summary(g.name, { fromMs: stormStart, growthPerSecond: Infinity, floor: 0 })))
        .join('; ')}`,
    ];
    if (died.length > 0) notes.push(`EXITED BY ITSELF: ${died.map((c) => `${c.name} (${String(c.child.exitCode ?? c.child.signalCode)})`).join(', ')}`);
    if (result.missing > 0) notes.push(`lost e.g. ${result.missingKeys.slice(0, 5).join(', ')}`);
    dumpLogs(world);
    const pass =
      killed.every((k) => k === 'SIGKILL') &&
      stats.published === stats.offered &&
      result.unexpected === 0 &&
      apiOk &&
      died.length === 0 &&
      handed.every((h) => h.seconds !== undefined);
    return verdict(
      title,
      {
        accepted: settings.city + settings.elsewhere,
        due: result.expected,
        delivered: result.delivered,
        duplicates: received.duplicates,
        lost: result.missing,
        missingRegistrations: 0,
        status5xx: world.status5xx,
        status503: world.status503,
      },
      notes,
      pass,
    );
  } finally {
    await api.stop();
    await lag?.stop();
    await admin.disconnect().catch(() => undefined);
    await world.stop();
  }
}
