import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kafka } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { createKafkaClient, TopicNames } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { databaseName } from '@stormhook/mongo';
import { testInfra } from '@stormhook/testing';
import { describeLag, LagMonitor, longestStall, type LagSample } from '../bench/consumer-lag.js';
import { whereLost } from './diagnose.js';
import { diedByItself } from './children.js';
import { infraControl } from './infra-control.js';
import { seedStormAlarms, type StormAlarm } from './storm-alarms.js';
import { describeStorm, feedStrike, Storm, STORM_BOX, uniformIn } from './storm.js';
import { sleep, World, type Registration, type Tally } from './world.js';

export interface ScenarioResult extends Tally {
  scenario: string;
  pass: boolean;
  notes: string[];
}

/** Passes when nothing accepted was lost, every due notification arrived, and any 5xx was a 503. */
export function verdict(scenario: string, tally: Tally, notes: string[], extra = true): ScenarioResult {
  const pass = extra && tally.lost === 0 && tally.missingRegistrations === 0 && tally.status5xx === tally.status503;
  return { scenario, ...tally, pass, notes };
}

/** The load every storm scenario runs under (`npm run faults -- --rate 500 --seconds 40 --due 2000`). */
export interface StormSettings {
  /** Offered strikes a second on feed.lightning.v1. */
  rate: number;
  /** How long the storm lasts. */
  seconds: number;
  /** Seeded alarms, each struck once at its centre: the due deliveries. */
  due: number;
  /** How long to wait, after the storm, for the last due delivery. */
  drainSeconds: number;
  /** When the fault hits, as a fraction of the storm's duration. */
  faultAt: number;
}

export const DEFAULT_STORM: StormSettings = { rate: 500, seconds: 40, due: 2_000, drainSeconds: 300, faultAt: 0.4 };

/** One (strike, registration) pair that must produce one webhook. */
interface DuePair {
  strikeId: string;
  registrationId: string;
}

/** What a fault did; `ok` false fails the scenario (the fault did not happen as intended). */
interface FaultOutcome {
  ok: boolean;
  /** When the fault hit (duplicates spanning it are attributed to it). */
  atMs: number;
  /**
   * When a fault that lasts (an outage) ended; default `atMs`. A delivery first sent before then may
   * not have had its outcome recorded, so its repeat after the fault began is at-least-once.
   */
  untilMs?: number;
  notes: string[];
  /** Deliveries the fault itself made due (alarms registered through the API and struck). */
  extraDue?: DuePair[];
  /** Registrations accepted through the API, and how many of them the API no longer knows. */
  registrations?: Registration[];
  missingRegistrations?: number;
}

interface StormRun {
  world: World;
  settings: StormSettings;
  alarms: StormAlarm[];
  storm: Storm;
  lag: LagMonitor;
}

function lagAt(sample: LagSample, name: string): string {
  const value = sample.lags[name];
  return value === undefined ? 'unknown' : value.toLocaleString('en');
}

/** Samples until `name`'s lag is above 0 (work in flight, uncommitted) or `timeoutMs` passed. */
async function whenBusy(lag: LagMonitor, name: string, timeoutMs = 10_000): Promise<LagSample> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const sample = await lag.sample();
    if ((sample.lags[name] ?? 0) > 0 || Date.now() > until) return sample;
    await sleep(100);
  }
}

/**
 * A fault at storm load: `settings.due` point alarms are seeded into the matcher's database (their
 * webhooks go to the fault receiver), ingest, `matchers` matchers and the notifier run as child
 * processes, and a storm of `settings.rate` strikes/s is published on the RAW feed topic for
 * `settings.seconds`: background strikes into a box no alarm covers, with one strike at each
 * alarm's centre interleaved evenly. `fault` hits at `settings.faultAt` of the storm. The scenario
 * then waits for every due (strike, alarm) webhook and counts lost and duplicate ones.
 */
async function stormScenario(
  key: string,
  title: string,
  settings: StormSettings,
  setup: { matchers?: number; failFirst?: number },
  fault: (run: StormRun) => Promise<FaultOutcome>,
): Promise<ScenarioResult> {
  const world = new World(key);
  const logger = createLogger({ service: 'faults', level: 'silent' });
  let kafka: Kafka | undefined;
  let lag: LagMonitor | undefined;
  try {
    let seeded = { alarms: [] as StormAlarm[], ms: 0 };
    const mongoUrl = testInfra().mongoUrl;
    await world.start(setup.matchers ?? 1, {
      ingest: true,
      matcherStartTimeoutMs: 300_000,
      beforeMatchers: async () => void (seeded = await seedStormAlarms(world, mongoUrl, settings.due)),
    });
    const { alarms } = seeded;
    kafka = createKafkaClient({ brokers: testInfra().kafkaBrokers, credentials: testInfra().kafkaCredentials, clientId: `faults-lag-${key}`, logger });
    lag = new LagMonitor(kafka, world.lagGroups(), 5_000);
    await lag.start();
    world.receiver.failFirst = setup.failFirst ?? 0;
    const storm = new Storm({
      rate: settings.rate,
      seconds: settings.seconds,
      targets: alarms,
      idPrefix: `${key}-${Date.now().toString(36)}`,
      background: uniformIn(STORM_BOX, 77),
      publish: async (events) => void (await world.publish(TopicNames.FeedLightning, events)),
    });
    const stormStart = Date.now();
    const running = storm.run();
    running.catch(() => undefined); // awaited below; a fault throwing first must not leave it unhandled
    await sleep(settings.seconds * 1000 * settings.faultAt);
    const outcome = await fault({ world, settings, alarms, storm, lag });
    const stats = await running;
    const due: DuePair[] = [...alarms.map((a, k) => ({ strikeId: storm.targetIds[k]!, registrationId: a.registrationId })), ...(outcome.extraDue ?? [])];
    const arrived = (p: DuePair) => world.receiver.arrivals(p.strikeId, p.registrationId).length > 0;
    const drainBy = Date.now() + settings.drainSeconds * 1000;
    while (Date.now() < drainBy && !due.every(arrived)) await sleep(500);
    const drainedS = (Date.now() - stormStart) / 1000;
    await sleep(3_000); // room for late duplicates
    const tally = stormTally(world, due, outcome, seeded.alarms.length);
    const republished = await republishedNote(world, lag, stats.published + (outcome.extraDue?.length ?? 0), tally.lost === 0);
    const lagNotes = world.lagGroups().map((g) => describeLag(lag!.summary(g.name, { fromMs: stormStart, growthPerSecond: Infinity, floor: 0 })));
    const notes = [
      ...outcome.notes,
      describeStorm(stats),
      `${tally.due} due, ${tally.delivered} delivered within ${drainedS.toFixed(0)} s of the storm's start; ${duplicateNote(world, due, outcome.atMs, outcome.untilMs ?? outcome.atMs)}`,
      republished,
      `${world.receiver.acknowledged - countArrivals(world, due)} other webhooks (strikes at one alarm's centre inside a neighbour's circle), ${world.receiver.failed} attempts failed on purpose`,
      `lag: ${lagNotes.join('; ')}`,
    ];
    for (const g of world.lagGroups()) {
      const stall = longestStall(lag.samples, g.name);
      if (stall.seconds >= 60)
        notes.push(`${g.name} group made no net progress for ${stall.seconds.toFixed(0)} s with ${stall.waiting.toLocaleString('en')} records waiting`);
    }
    // "Recovers without a restart" (reliability.md): a service that exited by itself fails the scenario.
    const died = world.children().filter(diedByItself);
    if (died.length > 0)
      notes.push(
        `EXITED BY ITSELF: ${died.map((c) => `${c.name} (${String(c.child.exitCode ?? c.child.signalCode)}): ${c.lines.slice(-3).join(' | ').slice(0, 600)}`).join('; ')}`,
      );
    if (tally.lost > 0) {
      const lostAt = due
        .filter((p) => !arrived(p))
        .map((p) => ((storm.publishedAt.get(p.strikeId) ?? Number.NaN) - outcome.atMs) / 1000)
        .sort((a, b) => a - b);
      notes.push(`lost strikes were published ${lostAt[0]?.toFixed(1)} to ${lostAt.at(-1)?.toFixed(1)} s after the fault`);
      notes.push(
        await whereLost(
          mongoUrl,
          world.dbPrefix,
          due.filter((p) => !arrived(p)),
        ),
      );
      notes.push(
        `children's last stats: ${world
          .children()
          .map((c) => `${c.name} ${JSON.stringify(c.stats)}`)
          .join(', ')}`,
      );
      dumpLogs(world);
    }
    if (tally.lost > 0)
      notes.push(
        `children: ${world
          .children()
          .map(
            (c) =>
              `${c.name} ${c.child.exitCode === null && c.child.signalCode === null ? 'alive' : `exited ${String(c.child.exitCode ?? c.child.signalCode)}`}`,
          )
          .join(', ')}`,
      );
    return verdict(title, tally, notes, outcome.ok && stats.published === stats.offered && died.length === 0);
  } finally {
    await lag?.stop();
    await world.stop();
  }
}

/**
 * At-least-once upstream of the webhook: records a stage published twice (it was killed, or lost its
 * broker, after publishing and before committing its input). Each strike makes exactly one weather
 * event and each notification one alarm.triggered record, so whatever the topics hold beyond that
 * was published again; the next stage's de-duplication (ingest's event ids, the matcher's ledger,
 * the notifier's delivery ids) absorbs it, and it never shows as a duplicate webhook.
 */
async function republishedNote(world: World, lag: LagMonitor, strikes: number, complete: boolean): Promise<string> {
  const topics = Object.fromEntries(world.lagGroups().map((g) => [g.name, g.topic]));
  try {
    const weather = await lag.records(topics['matcher']!);
    const triggered = await lag.records(topics['notifier']!);
    // The notifications are known by the webhooks they caused, so the matcher's figure needs all of them delivered.
    const matcher = complete
      ? `${triggered - world.receiver.delivered.size} alarm.triggered records by the matcher (${triggered} for ${world.receiver.delivered.size} notifications)`
      : `${triggered} alarm.triggered records (the matcher's re-publishes are unknown while deliveries are missing)`;
    return `published again upstream and de-duplicated downstream: ${weather - strikes} lightning events by ingest (${weather} for ${strikes} strikes), ${matcher}`;
  } catch (error) {
    return `re-published records unknown (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** With FAULTS_LOG_DIR set, the children's last log lines go there (a diagnosis aid). */
export function dumpLogs(world: World): void {
  const dir = process.env['FAULTS_LOG_DIR'];
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const c of world.children()) writeFileSync(join(dir, `${world.name}-${c.name}.log`), `${c.lines.join('\n')}\n`);
}

function countArrivals(world: World, due: readonly DuePair[]): number {
  return due.reduce((n, p) => n + world.receiver.arrivals(p.strikeId, p.registrationId).length, 0);
}

function stormTally(world: World, due: readonly DuePair[], outcome: FaultOutcome, seededCount: number): Tally {
  let delivered = 0;
  let duplicates = 0;
  for (const p of due) {
    const n = world.receiver.arrivals(p.strikeId, p.registrationId).length;
    if (n > 0) delivered++;
    duplicates += Math.max(0, n - 1);
  }
  return {
    accepted: seededCount + (outcome.registrations?.length ?? 0),
    due: due.length,
    delivered,
    duplicates,
    lost: due.length - delivered,
    missingRegistrations: outcome.missingRegistrations ?? 0,
    status5xx: world.status5xx,
    status503: world.status503,
  };
}

/**
 * Where duplicates come from. Every webhook of one (strike, alarm) carries the notification id as
 * webhook-id, so a second 2xx for a pair is the notifier sending one delivery again: either across
 * the fault (it was sent, but the crash or outage came before its outcome was recorded, so the
 * next owner sent it again: at-least-once) or in steady state (a lease that ran out during a slow
 * send, or a double claim: worth a look).
 */
function duplicateNote(world: World, due: readonly DuePair[], faultAtMs: number, faultUntilMs: number): string {
  let across = 0;
  let steady = 0;
  let distinctIds = 0;
  /** Seconds from the fault's start to the first send of each duplicate not attributed to it, and on to its repeat. */
  const steadyAt: number[] = [];
  const repeatAfter: number[] = [];
  for (const p of due) {
    const arrivals = world.receiver.arrivals(p.strikeId, p.registrationId);
    if (arrivals.length < 2) continue;
    if (new Set(arrivals.map((a) => a.webhookId)).size > 1) distinctIds += arrivals.length - 1;
    const spans = arrivals[0]!.atMs < faultUntilMs && arrivals.slice(1).some((a) => a.atMs >= faultAtMs);
    if (spans) across += arrivals.length - 1;
    else {
      steady += arrivals.length - 1;
      steadyAt.push((arrivals[0]!.atMs - faultAtMs) / 1000);
      repeatAfter.push((arrivals[1]!.atMs - arrivals[0]!.atMs) / 1000);
    }
  }
  if (across + steady === 0) return 'no duplicates';
  steadyAt.sort((a, b) => a - b);
  repeatAfter.sort((a, b) => a - b);
  const window = faultUntilMs > faultAtMs ? ` (the fault lasted ${((faultUntilMs - faultAtMs) / 1000).toFixed(1)} s)` : '';
  const when =
    steady > 0
      ? `, first sent ${steadyAt[0]!.toFixed(1)} to ${steadyAt.at(-1)!.toFixed(1)} s after the fault began, repeated ${repeatAfter[0]!.toFixed(1)} to ${repeatAfter.at(-1)!.toFixed(1)} s later`
      : '';
  return `duplicates: ${across} across the fault${window} (first sent before it ended, outcome not recorded, sent again: at-least-once), ${steady} not across it (a lease ran out or a double claim${when})${distinctIds ? `, ${distinctIds} under a different webhook-id (a second notification id for one strike and alarm: a defect)` : ''}`;
}

/** Which of `registrations` the matcher's database holds (when the API did not list some: lost, or not answered?). */
async function storedRegistrations(world: World, registrations: readonly Registration[]): Promise<string> {
  const client = new MongoClient(testInfra().mongoUrl, { serverSelectionTimeoutMS: 10_000 });
  try {
    const collection = client.db(databaseName('alarm_matcher', world.dbPrefix)).collection<{ _id: string }>('registrations');
    const held = await Promise.all(registrations.map(async (r) => ((await collection.findOne({ _id: r.id }, { projection: { _id: 1 } })) ? 1 : 0)));
    return `the matcher's database holds ${held.reduce<number>((a, b) => a + b, 0)} of the ${registrations.length}`;
  } catch (error) {
    return `the matcher's database could not be read (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    await client.close();
  }
}

/** kill -9 of ingest while it has feed records in flight; a new ingest takes over its group. */
export function ingestKill(settings: StormSettings): Promise<ScenarioResult> {
  return stormScenario('ingest-kill', `ingest kill -9 mid-batch at ${settings.rate}/s`, settings, {}, async ({ world, lag }) => {
    const busy = await whenBusy(lag, 'ingest');
    const killed = await world.ingest!.kill('SIGKILL');
    const atMs = Date.now();
    await sleep(1_000);
    await world.startIngest();
    return {
      ok: killed === 'SIGKILL',
      atMs,
      notes: [
        `ingest killed (${String(killed)}) with ${lagAt(busy, 'ingest')} feed records uncommitted; a new ingest started ${((Date.now() - atMs) / 1000).toFixed(1)} s later`,
      ],
    };
  });
}

/** No fault: the control, what the pipeline does with the same storm when nothing goes wrong. */
export function baseline(settings: StormSettings): Promise<ScenarioResult> {
  return stormScenario('baseline', `no fault (control) at ${settings.rate}/s`, settings, {}, async () => ({ ok: true, atMs: Date.now(), notes: ['no fault'] }));
}

/** Two matchers in one group; kill -9 one while it has strikes in flight: the other takes over its partitions. */
export function matcherKill(settings: StormSettings): Promise<ScenarioResult> {
  return stormScenario(
    'matcher-kill',
    `alarm-matcher kill -9 mid-batch (2 in group) at ${settings.rate}/s`,
    settings,
    { matchers: 2 },
    async ({ world, lag }) => {
      const busy = await whenBusy(lag, 'matcher');
      const killed = await world.matchers[1]!.kill('SIGKILL');
      return {
        ok: killed === 'SIGKILL',
        atMs: Date.now(),
        notes: [
          `second matcher killed (${String(killed)}) with ${lagAt(busy, 'matcher')} weather records uncommitted in the group; the survivor takes its partitions`,
        ],
      };
    },
  );
}

/**
 * The receiver fails every delivery's first attempt, so deliveries are in retry throughout; kill -9
 * the notifier while many are, and start a new one at the same address.
 */
export function notifierKill(settings: StormSettings): Promise<ScenarioResult> {
  return stormScenario('notifier-kill', `notifier kill -9 mid-retry at ${settings.rate}/s`, settings, { failFirst: 1 }, async ({ world, alarms }) => {
    const inRetry = () => [...world.receiver.attempts.entries()].filter(([id, n]) => n >= 1 && !world.receiver.delivered.has(id)).length;
    // Deliveries start only once strikes got through ingest and the matcher: wait for enough of them in retry.
    const until = Date.now() + 120_000;
    while (inRetry() < Math.min(50, alarms.length / 4) && Date.now() < until) await sleep(100);
    const retrying = inRetry();
    const killed = await world.notifier!.kill('SIGKILL');
    const atMs = Date.now();
    await world.startNotifier();
    return {
      ok: killed === 'SIGKILL' && retrying > 0,
      atMs,
      notes: [
        `notifier killed (${String(killed)}) with ${retrying} deliveries in retry and ${world.receiver.acknowledged} delivered; restarted in ${((Date.now() - atMs) / 1000).toFixed(1)} s`,
      ],
    };
  });
}

/** Stops the broker for ~10 s in the storm (the publisher retries its sends), then restarts it. */
export function kafkaRestart(settings: StormSettings): Promise<ScenarioResult> {
  return stormScenario('kafka-restart', `Kafka broker restart at ${settings.rate}/s`, settings, {}, async () => {
    const atMs = Date.now();
    await infraControl('stopKafka');
    await sleep(10_000);
    await infraControl('startKafka');
    return { ok: true, atMs, notes: [`broker down ${((Date.now() - atMs) / 1000).toFixed(1)} s`] };
  });
}

/**
 * Stops FerretDB for 30 s in the storm: API calls answer 503 fast, alarms registered before the
 * outage and struck during it are notified, nothing accepted is lost, and the services recover by
 * themselves (a registration after the outage is accepted and notified).
 */
export function databaseStop(settings: StormSettings): Promise<ScenarioResult> {
  return stormScenario('db-stop', `database stopped 30 s at ${settings.rate}/s`, settings, {}, async ({ world }) => {
    // Registrations are the control plane: they must be answered while the pipeline works through
    // the storm. A 503 is retried as a client would (it is an outage answer, not a loss), and counted.
    const during = { tries: 0, refused: 0, unanswered: 0, slowestMs: 0, latencies: [] as number[] };
    const registrations: Registration[] = [];
    while (registrations.length < 4) {
      const began = Date.now();
      const { registration, status } = await world.register();
      const ms = Date.now() - began;
      during.tries++;
      during.latencies.push(ms);
      during.slowestMs = Math.max(during.slowestMs, ms);
      if (registration) registrations.push(registration);
      else if ((status === 503 || status === 0) && during.tries < 30) {
        if (status === 503) during.refused++;
        else during.unanswered++; // no answer within the client's 15 s
        await sleep(1_000);
      } else throw new Error(`registration during the storm failed with ${status} after ${during.tries} tries`);
    }
    const median = [...during.latencies].sort((a, b) => a - b)[Math.floor(during.latencies.length / 2)]!;
    const extraDue: DuePair[] = [];
    const strikeAt = async (r: Registration) => {
      const strikeId = `db-stop-${r.recipientId}-${Date.now()}`;
      await world.publish(TopicNames.FeedLightning, [feedStrike(strikeId, r.point)]);
      extraDue.push({ strikeId, registrationId: r.id });
    };
    const refusedBefore = world.status503;
    await infraControl('stopDatabase');
    const atMs = Date.now();
    const outageEnd = atMs + 30_000;
    let slowest = 0;
    let tries = 0;
    let struck = 0;
    while (Date.now() < outageEnd) {
      const began = Date.now();
      const { registration } = await world.register();
      slowest = Math.max(slowest, Date.now() - began);
      tries++;
      if (registration) registrations.push(registration);
      if (struck < 4) await strikeAt(registrations[struck++]!);
      await sleep(2_000);
    }
    await infraControl('startDatabase');
    const untilMs = Date.now();
    let recovered: Registration | undefined;
    const recoverBy = Date.now() + 60_000;
    while (!recovered && Date.now() < recoverBy) {
      recovered = (await world.register()).registration;
      if (!recovered) await sleep(1_000);
    }
    const recoveredAfterS = (Date.now() - untilMs) / 1000;
    if (recovered) {
      registrations.push(recovered);
      await strikeAt(recovered);
    }
    const missing = await world.missing(registrations);
    if (missing.count > 0) missing.answers.push(await storedRegistrations(world, registrations));
    return {
      ok: slowest < 6_000 && recovered !== undefined,
      atMs,
      untilMs,
      registrations,
      missingRegistrations: missing.count,
      extraDue,
      notes: [
        `before the outage, in the storm: 4 registrations in ${during.tries} tries (${during.refused} answered 503 and ${during.unanswered} not within 15 s; both retried), median ${median} ms, slowest ${during.slowestMs} ms`,
        `${tries} registrations tried during the outage, ${world.status503 - refusedBefore} answered 503, slowest ${slowest} ms`,
        recovered ? `recovered without restart: a registration was accepted ${recoveredAfterS.toFixed(1)} s after the database was back` : 'DID NOT RECOVER',
        `${missing.count} of ${registrations.length} API registrations missing afterwards${missing.count > 0 ? `: ${missing.answers.join('; ')}` : ''}`,
        `5xx by status ${JSON.stringify(Object.fromEntries(world.statuses5xx))}`,
      ],
    };
  });
}
