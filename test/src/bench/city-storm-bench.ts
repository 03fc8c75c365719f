/**
 * City-storm benchmark (not a test): a severe storm system crosses İstanbul while the customers in
 * its path are called, end to end and with every hop the real one. The feed records (strikes,
 * thunderstorm cells, rain areas) go out on the RAW feed topics, so ingest is in the path:
 * feed.* -> ingest -> weather.* -> alarm-matcher -> alarm.triggered.v1 -> notifier -> HTTP to a local
 * receiver. Ingest, matcher and notifier run as separate processes; geo, identity, the gateway, the
 * publisher and the receiver in this one.
 *
 * Registrations (seeded straight into the matcher's database in its stored form, as the lightning
 * benchmark does): `city` in İstanbul - point alarms of 1-10 km over the city's land, district alarms
 * and neighbourhood alarms (the shared boundary data's districts and Who's On First neighbourhoods)
 * with a mix of lightning, thunderstorm and precipitation filters - and `elsewhere` lightning point
 * alarms over the rest of the country (`@stormhook/alarm-matcher/bench`), kept clear of the box in
 * central Anatolia where the country's background lightning falls.
 *
 * The storm (city-storm-system.ts): a squall line crosses the city west to east in `seconds`, with 8
 * thunderstorm cells (20 revisions each) and 4 rain areas (10 revisions each) moving along it, and
 * `city-rate` strikes/s around the cells, while `background-rate` strikes/s fall in central Anatolia.
 *
 * Every callback the filters ask for is worked out beforehand (city-callbacks.ts: the matcher's own
 * geometry, the documented filter rules and lifecycle) and compared one by one with what the receiver
 * got. Reported: callbacks expected / received / missing / unexpected / duplicated; deliveries per
 * second (mean over the storm, peak over 10 s); latency from the publication of the feed record to
 * the receipt of each callback it caused, p50 / p99 / max overall and for the busiest minute; the
 * committed-offset lag of every stage's consumer group over the storm with its slope; CPU per
 * delivery of the three stage processes (from /proc) and each stage's share of a core.
 *
 *   KAFKA_BROKERS=... MONGO_URL=... node test/dist/bench/city-storm-bench.js
 *     [--city 20000] [--elsewhere 80000] [--seconds 600] [--city-rate 5] [--background-rate 200]
 *     [--drain 900] [--lag-interval 5]
 * Each option also reads an environment variable: CITY_REGISTRATIONS, CITY_ELSEWHERE, CITY_SECONDS,
 * CITY_RATE, CITY_BACKGROUND_RATE, CITY_DRAIN, CITY_LAG_INTERVAL (a short run: CITY_REGISTRATIONS=1000
 * CITY_ELSEWHERE=2000 CITY_SECONDS=40 CITY_BACKGROUND_RATE=50 CITY_DRAIN=60, about 90 s).
 * CITY_NOTIFIER_ENV=NAME=value,... gives the notifier extra settings, to try one against the bound.
 * (The first full run needed NOTIFIER_STATS_MAX_ACCOUNTS_PER_FLUSH=1: the webhook statistics flush
 * wrote 500 accounts in one bulkWrite outside the notifier's write gate and stalled its deliveries;
 * it now writes small chunks through the shared gate, see mongo-webhook-stats-store.ts.)
 * The drain ends when every expected callback is in, after a minute without progress, or after
 * `drain` seconds; the full size takes about 15 minutes (setup, the storm, the drain).
 *
 * bench-time-limit: 45 min (npm run bench's limit for this file: setup about 3 min, the storm 10,
 * a drain of up to 15 when the bound falls behind, and room for a slow machine).
 */
import { parseArgs } from 'node:util';
import { createKafkaClient, topicNamer, TopicNames } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { deletePrefixedTopics, dropPrefixedDatabases, machineDescription, reportBench, testInfra } from '@stormhook/testing';
import { describeStorm } from '../faults/storm.js';
import { whereLost } from '../faults/diagnose.js';
import { sleep, World } from '../faults/world.js';
import { compare, ReceivedCallbacks } from './city-callbacks.js';
import { planCityStorm, publishRevisions, seedCityStorm } from './city-storm-setup.js';
import { describeLag, LagMonitor, type LagGroup, type LagSummary } from './consumer-lag.js';
import { loadIstanbul } from './istanbul.js';
import { cpuMicrosOf } from './proc-cpu.js';

const { values } = parseArgs({
  options: {
    city: { type: 'string' },
    elsewhere: { type: 'string' },
    seconds: { type: 'string' },
    'city-rate': { type: 'string' },
    'background-rate': { type: 'string' },
    drain: { type: 'string' },
    'lag-interval': { type: 'string' },
  },
});

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!(value > 0)) throw new Error(`--${name}: "${raw}" is not a positive number`);
  return value;
}

const CITY = Math.round(positive('city', values.city ?? process.env['CITY_REGISTRATIONS'], 20_000));
const ELSEWHERE = Math.round(positive('elsewhere', values.elsewhere ?? process.env['CITY_ELSEWHERE'], 80_000));
const SECONDS = positive('seconds', values.seconds ?? process.env['CITY_SECONDS'], 600);
const CITY_RATE = positive('city-rate', values['city-rate'] ?? process.env['CITY_RATE'], 5);
const BACKGROUND_RATE = positive('background-rate', values['background-rate'] ?? process.env['CITY_BACKGROUND_RATE'], 200);
const DRAIN_S = positive('drain', values.drain ?? process.env['CITY_DRAIN'], 900);
/** Extra notifier settings, `NAME=value,NAME=value` (to try a setting against the bound; none by default). */
const NOTIFIER_ENV = Object.fromEntries(
  (process.env['CITY_NOTIFIER_ENV'] ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) throw new Error(`CITY_NOTIFIER_ENV: "${pair}" is not NAME=value`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
);
const LAG_INTERVAL_MS = positive('lag-interval', values['lag-interval'] ?? process.env['CITY_LAG_INTERVAL'], 5) * 1000;
/** Targets of issue 27. */
const P99_LIMIT_MS = 5_000;

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

async function main(): Promise<void> {
  const mongoUrl = process.env['MONGO_URL'];
  const brokers = process.env['KAFKA_BROKERS']?.split(',');
  if (!brokers || !mongoUrl) throw new Error('KAFKA_BROKERS and MONGO_URL must be set (npm run bench sets them)');
  const startedAt = Date.now();
  const world = new World('city-storm', { notifierEnv: NOTIFIER_ENV });
  const istanbul = loadIstanbul();
  const kafka = createKafkaClient({
    brokers,
    credentials: testInfra().kafkaCredentials,
    clientId: 'city-storm-lag',
    logger: createLogger({ service: 'city-storm-bench', level: 'silent' }),
  });
  let lag: LagMonitor | undefined;
  try {
    let seedNote = '';
    let matcherStart = 0;
    await world.start(1, {
      ingest: true,
      matcherStartTimeoutMs: 600_000,
      beforeMatchers: async () => {
        seedNote = await seedCityStorm(world, mongoUrl, { city: CITY, elsewhere: ELSEWHERE }, istanbul);
        matcherStart = Date.now();
      },
    });
    const matcherStartS = (Date.now() - matcherStart) / 1000;
    const loadedLine = world.matchers[0]!.lines.find((line) => line.includes('registration index loaded'));
    const indexed = loadedLine ? Number((JSON.parse(loadedLine) as { registrations?: number }).registrations) : 0;
    if (indexed < CITY + ELSEWHERE) throw new Error(`the matcher indexed ${indexed} registrations, ${CITY + ELSEWHERE} were seeded`);

    // What the storm must cause, before it runs.
    const t = Date.now();
    const { expected, system, cityStrikes, storm } = await planCityStorm(world, mongoUrl, istanbul, {
      seconds: SECONDS,
      cityRate: CITY_RATE,
      backgroundRate: BACKGROUND_RATE,
    });
    console.log(
      'city-storm benchmark: a storm system over İstanbul, feed topics -> ingest -> matcher -> notifier -> webhook (real Kafka, real database, separate processes)',
    );
    console.log(`machine: ${machineDescription()}`);
    console.log(`registrations: ${seedNote}; matcher indexed ${indexed.toLocaleString('en')} and started in ${matcherStartS.toFixed(1)} s`);
    console.log(
      `storm: ${SECONDS} s, ${cityStrikes.toLocaleString('en')} strikes over the city (${CITY_RATE}/s) among ${storm.total.toLocaleString('en')} (${BACKGROUND_RATE}/s in central Anatolia), ${system.cells.length} cells x ${system.revisions.filter((r) => r.kind === 'THUNDERSTORM').length / system.cells.length} revisions, ${system.rains.length} rain areas x ${system.revisions.filter((r) => r.kind === 'PRECIPITATION').length / system.rains.length} revisions`,
    );
    console.log(
      `expected callbacks (worked out in ${((Date.now() - t) / 1000).toFixed(1)} s): ${expected.total.toLocaleString('en')} = ${expected.lightning.toLocaleString('en')} lightning START + ${expected.starts.toLocaleString('en')} thunderstorm/precipitation START + ${expected.ends.toLocaleString('en')} END (${(expected.lightning / Math.max(1, cityStrikes)).toFixed(0)} per city strike)`,
    );

    const received = new ReceivedCallbacks();
    world.receiver.onDelivered = (body, atMs) => received.take(body, atMs);
    const topics = topicNamer(world.topicPrefix);
    const base = world.lagGroups();
    const groupOf = (name: string) => base.find((g) => g.name === name)!.groupId;
    const groups: LagGroup[] = [
      ...base,
      { name: 'ingest (storms)', groupId: groupOf('ingest'), topic: topics.physical(TopicNames.FeedThunderstorm) },
      { name: 'ingest (rain)', groupId: groupOf('ingest'), topic: topics.physical(TopicNames.FeedPrecipitation) },
      { name: 'matcher (storms)', groupId: groupOf('matcher'), topic: topics.physical(TopicNames.WeatherThunderstorm) },
      { name: 'matcher (rain)', groupId: groupOf('matcher'), topic: topics.physical(TopicNames.WeatherPrecipitation) },
    ];
    lag = new LagMonitor(kafka, groups, LAG_INTERVAL_MS);
    await lag.start();

    const stages = { ingest: world.ingest!, matcher: world.matchers[0]!, notifier: world.notifier! };
    const pids = Object.values(stages).map((c) => c.child.pid!);
    const cpuBefore = Object.fromEntries(Object.entries(stages).map(([name, c]) => [name, cpuMicrosOf([c.child.pid!])]));
    const selfBefore = process.cpuUsage();
    const allBefore = cpuMicrosOf(pids);

    // The storm: strikes through the Storm publisher, the tracked revisions at their times beside it.
    const publishedAt = new Map<string, number>();
    const stormStart = Date.now();
    const revisionsDone = publishRevisions(world, system, stormStart, publishedAt);
    // A progress line every 30 s: what arrived and each stage's backlog (a stall shows as it happens).
    const progress = setInterval(() => {
      const last = lag!.samples.at(-1);
      console.log(
        `  +${Math.round((Date.now() - stormStart) / 1000)} s: ${received.distinct.toLocaleString('en')} of ${expected.total.toLocaleString('en')} callbacks received; lag ${base.map((g) => `${g.name} ${last?.lags[g.name] ?? '-'}`).join(', ')}`,
      );
    }, 30_000);
    const stats = await storm.run();
    await revisionsDone;
    const stormEnd = Date.now();
    for (const [id, at] of storm.publishedAt) publishedAt.set(id, at);

    // Drain: until every expected callback is in, nothing arrived for a minute, or the drain limit.
    const drainDeadline = Date.now() + DRAIN_S * 1000;
    let lastCount = -1;
    let lastProgress = Date.now();
    while (Date.now() < drainDeadline && received.distinct < expected.total && Date.now() - lastProgress < 60_000) {
      if (received.distinct !== lastCount) {
        lastCount = received.distinct;
        lastProgress = Date.now();
      }
      await sleep(1_000);
    }
    await sleep(3_000); // late duplicates
    clearInterval(progress);
    const drainEnd = Date.now();
    await lag.sample();
    const cpuAfter = Object.fromEntries(Object.entries(stages).map(([name, c]) => [name, cpuMicrosOf([c.child.pid!])]));
    const allUs = cpuMicrosOf(pids) - allBefore;
    const self = process.cpuUsage(selfBefore);

    const result = compare(expected, received, publishedAt);
    const latencies = result.timed.map((x) => x.latencyMs).sort((a, b) => a - b);
    // The busiest minute: the 60 s of the storm whose records caused the most callbacks.
    const causeTimes = result.timed.map((x) => x.causeAtMs).sort((a, b) => a - b);
    let peakFrom = stormStart;
    let best = 0;
    for (let i = 0, j = 0; i < causeTimes.length; i++) {
      while (causeTimes[i]! - causeTimes[j]! > 60_000) j++;
      if (i - j + 1 > best) {
        best = i - j + 1;
        peakFrom = causeTimes[j]!;
      }
    }
    const peakLatencies = result.timed
      .filter((x) => x.causeAtMs >= peakFrom && x.causeAtMs <= peakFrom + 60_000)
      .map((x) => x.latencyMs)
      .sort((a, b) => a - b);
    // Deliveries per second: the mean over the storm and its drain, and the busiest 10 s.
    const arrivals = [...received.arrivals].sort((a, b) => a - b);
    let peak10 = 0;
    for (let i = 0, j = 0; i < arrivals.length; i++) {
      while (arrivals[i]! - arrivals[j]! >= 10_000) j++;
      peak10 = Math.max(peak10, i - j + 1);
    }
    const firstArrival = arrivals[0] ?? stormStart;
    const lastArrival = arrivals.at(-1) ?? stormStart;
    const meanRate = arrivals.length / Math.max(1, (lastArrival - firstArrival) / 1000);
    const wallS = (drainEnd - stormStart) / 1000;
    const stormS = (stormEnd - stormStart) / 1000;

    const summaries: LagSummary[] = groups.map((g) =>
      lag!.summary(g.name, {
        fromMs: stormStart,
        toMs: stormEnd + LAG_INTERVAL_MS,
        growthPerSecond: 0.02 * (CITY_RATE + BACKGROUND_RATE),
        floor: CITY_RATE + BACKGROUND_RATE,
      }),
    );
    // The notifier's backlog is in alarm.triggered records (notifications): judge it against the deliveries offered.
    const offeredPerS = expected.total / stormS;
    summaries[2] = lag.summary('notifier', { fromMs: stormStart, toMs: stormEnd + LAG_INTERVAL_MS, growthPerSecond: 0.02 * offeredPerS, floor: offeredPerS });
    const drainLag = groups.map((g) => `${g.name} ${lag!.samples.at(-1)?.lags[g.name] ?? '-'}`).join(', ');
    const share = (name: string) => ((cpuAfter[name]! - cpuBefore[name]!) / 1e6 / wallS) * 100;
    const cpuPerDelivery = result.delivered > 0 ? allUs / result.delivered : Number.NaN;
    const p50 = percentile(latencies, 0.5);
    const p99 = percentile(latencies, 0.99);
    const max = latencies.at(-1) ?? Number.NaN;
    const peakP99 = percentile(peakLatencies, 0.99);
    const growing = summaries.filter((s) => s.grows).map((s) => s.name);

    console.log(`publisher: ${describeStorm(stats)}; ${system.revisions.length} tracked revisions published`);
    console.log(
      `callbacks: ${result.expected.toLocaleString('en')} expected, ${result.delivered.toLocaleString('en')} received, ${result.missing.toLocaleString('en')} missing, ${result.unexpected.toLocaleString('en')} unexpected, ${received.duplicates.toLocaleString('en')} duplicate calls, ${received.other} other bodies${result.missingKeys.length ? `; missing e.g. ${result.missingKeys.slice(0, 3).join(', ')}` : ''}${result.unexpectedSample.length ? `; unexpected e.g. ${result.unexpectedSample.join(', ')}` : ''}`,
    );
    console.log(
      `deliveries: ${Math.round(offeredPerS)}/s offered over the storm (${stormS.toFixed(0)} s), ${Math.round(meanRate)}/s received on average from the first to the last (${((lastArrival - firstArrival) / 1000).toFixed(0)} s), ${Math.round(peak10 / 10)}/s over the busiest 10 s; last callback ${((lastArrival - stormEnd) / 1000).toFixed(1)} s after the storm ended`,
    );
    console.log(
      `latency feed record -> callback received: p50 ${p50} ms, p99 ${p99} ms, max ${max} ms; busiest minute (${peakLatencies.length.toLocaleString('en')} callbacks from ${Math.round((peakFrom - stormStart) / 1000)} s): p50 ${percentile(peakLatencies, 0.5)} ms, p99 ${peakP99} ms, max ${peakLatencies.at(-1) ?? Number.NaN} ms`,
    );
    console.log(
      `consumer lag over the storm (sampled every ${LAG_INTERVAL_MS / 1000} s): ${summaries.map(describeLag).join('; ')}; at the end of the drain: ${drainLag}`,
    );
    console.log(
      `CPU: ${Math.round(cpuPerDelivery)} us per delivery in ingest + matcher + notifier (${(allUs / 1e6).toFixed(0)} s over ${wallS.toFixed(0)} s); share of a core from the storm's start to the drain's end: ingest ${share('ingest').toFixed(0)} %, matcher ${share('matcher').toFixed(0)} %, notifier ${share('notifier').toFixed(0)} %, this process (publisher, receiver, gateway, geo, identity) ${(((self.user + self.system) / 1e6 / wallS) * 100).toFixed(0)} %`,
    );
    const allReceived = result.missing === 0;
    const verdict = allReceived && peakP99 <= P99_LIMIT_MS && growing.length === 0;
    console.log(
      `targets: ${verdict ? 'MET' : 'NOT MET'} (every callback received: ${allReceived}; p99 at the peak ${peakP99} ms <= ${P99_LIMIT_MS}: ${peakP99 <= P99_LIMIT_MS}; growing backlog: ${growing.length ? growing.join(', ') : 'none'})`,
    );
    console.log(`total run ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);

    const bench = `city storm over İstanbul (${CITY.toLocaleString('en')} + ${ELSEWHERE.toLocaleString('en')} registrations, ${SECONDS} s)`;
    reportBench({
      bench,
      metric: 'callbacks received',
      value: result.delivered,
      unit: `of ${result.expected}`,
      note: `${result.missing} missing, ${result.unexpected} unexpected, ${received.duplicates} duplicates`,
    });
    reportBench({
      bench,
      metric: 'deliveries per second, busiest 10 s',
      value: Math.round(peak10 / 10),
      unit: '/s',
      note: `${Math.round(offeredPerS)}/s offered on average, ${Math.round(meanRate)}/s received on average`,
    });
    reportBench({ bench, metric: 'p50 latency feed record to callback', value: p50, unit: 'ms' });
    reportBench({
      bench,
      metric: 'p99 latency feed record to callback',
      value: p99,
      unit: 'ms',
      note: `busiest minute p99 ${peakP99} ms; targets ${verdict ? 'met' : 'NOT met'}`,
    });
    reportBench({ bench, metric: 'max latency feed record to callback', value: max, unit: 'ms' });
    reportBench({
      bench,
      metric: 'CPU per delivery (ingest + matcher + notifier)',
      value: Math.round(cpuPerDelivery),
      unit: 'us',
      note: `ingest ${share('ingest').toFixed(0)} %, matcher ${share('matcher').toFixed(0)} %, notifier ${share('notifier').toFixed(0)} % of a core`,
    });
    for (const s of summaries) {
      reportBench({
        bench,
        metric: `${s.name} consumer lag, max`,
        value: s.max,
        unit: 'records',
        note: `last ${s.last ?? '-'}, slope ${Math.round(s.slopePerSecond)}/s${s.grows ? ', GROWING' : ''}`,
      });
    }
    if (!allReceived) {
      // A diagnosis aid: where the missing lightning callbacks stopped, and what the stages logged.
      const lost = result.missingKeys.filter((k) => k.startsWith('L|')).map((k) => ({ strikeId: k.split('|')[1]!, registrationId: k.split('|')[2]! }));
      for (const child of world.children()) {
        const problems = child.lines.filter((line) => /"level":"(warn|error|fatal)"/.test(line)).slice(-5);
        for (const line of problems) console.log(`${child.name}: ${line.slice(0, 400)}`);
      }
      const timeout = sleep(30_000).then(() => 'where the lost stopped: the databases did not answer within 30 s');
      console.log(await Promise.race([whereLost(mongoUrl, world.dbPrefix, lost), timeout]));
      throw new Error(`${result.missing} expected callbacks never arrived`);
    }
  } finally {
    // Bounded: a stage stuck on its database must not keep the benchmark (and the stack under it) alive.
    const within = (what: string, work: Promise<unknown>) =>
      Promise.race([
        work.catch((error: unknown) => console.error(`${what} failed`, error)),
        sleep(30_000).then(() => console.error(`${what} did not finish within 30 s`)),
      ]);
    await within('stopping the lag monitor', lag?.stop() ?? Promise.resolve());
    await within('stopping the services', world.stop());
    for (const child of world.children()) await child.kill('SIGKILL');
    await within('cleanup of databases', dropPrefixedDatabases(mongoUrl, world.dbPrefix));
    await within('cleanup of topics', deletePrefixedTopics(brokers, world.topicPrefix));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
