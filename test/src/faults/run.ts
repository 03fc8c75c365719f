// `npm run faults`: the fault scenarios and the soak against the private Kafka and FerretDB the
// devstack `faults` command starts (it passes KAFKA_BROKERS / MONGO_URL and serves stop/start
// requests over IPC). Every scenario runs under a storm on the raw feed topic (see scenarios.ts).
// Options (each also an environment variable):
//   --only a,b          scenario keys: ingest, matcher, notifier, kafka, db, replicas, soak (default: these),
//                       baseline (the same storm without a fault: a control, only when named)
//   --rate N            FAULTS_RATE, offered strikes/s of the storm (default 500)
//   --seconds N         FAULTS_SECONDS, how long the storm lasts (default 40)
//   --due N             FAULTS_DUE, seeded alarms struck once each: the due deliveries (default 2000)
//   --drain-seconds N   FAULTS_DRAIN_SECONDS, wait for the last delivery after the storm (default 300)
//   --soak-minutes N    SOAK_MINUTES, length of the soak (default 3)
// The replicas scenario (a city storm through 2 replicas of each stage, see replicas.ts) has its own
// size: REPLICAS_CITY (2000), REPLICAS_ELSEWHERE (8000), REPLICAS_SECONDS (180), REPLICAS_DOWN_SECONDS
// (60), REPLICAS_DRAIN_SECONDS (300).
import { infraControlAvailable } from './infra-control.js';
import {
  baseline,
  databaseStop,
  DEFAULT_STORM,
  ingestKill,
  kafkaRestart,
  matcherKill,
  notifierKill,
  type ScenarioResult,
  type StormSettings,
} from './scenarios.js';
import { DEFAULT_REPLICAS, replicaKill, type ReplicaSettings } from './replicas.js';
import { soak, type SoakResult } from './soak.js';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** A positive number from `--name` or the environment, or the default; anything else stops the run naming the option. */
function positive(name: string, env: string, fallback: number): number {
  const raw = option(name) ?? process.env[env];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!(value > 0)) throw new Error(`--${name} (${env}) must be a positive number, got "${raw}"`);
  return value;
}

const soakMinutes = positive('soak-minutes', 'SOAK_MINUTES', 3);
const settings: StormSettings = {
  ...DEFAULT_STORM,
  rate: positive('rate', 'FAULTS_RATE', DEFAULT_STORM.rate),
  seconds: positive('seconds', 'FAULTS_SECONDS', DEFAULT_STORM.seconds),
  due: Math.round(positive('due', 'FAULTS_DUE', DEFAULT_STORM.due)),
  drainSeconds: positive('drain-seconds', 'FAULTS_DRAIN_SECONDS', DEFAULT_STORM.drainSeconds),
};
const replicaSettings: ReplicaSettings = {
  ...DEFAULT_REPLICAS,
  city: Math.round(positive('replicas-city', 'REPLICAS_CITY', DEFAULT_REPLICAS.city)),
  elsewhere: Math.round(positive('replicas-elsewhere', 'REPLICAS_ELSEWHERE', DEFAULT_REPLICAS.elsewhere)),
  seconds: positive('replicas-seconds', 'REPLICAS_SECONDS', DEFAULT_REPLICAS.seconds),
  downSeconds: positive('replicas-down-seconds', 'REPLICAS_DOWN_SECONDS', DEFAULT_REPLICAS.downSeconds),
  drainSeconds: positive('replicas-drain-seconds', 'REPLICAS_DRAIN_SECONDS', DEFAULT_REPLICAS.drainSeconds),
};
const KEYS = ['baseline', 'ingest', 'matcher', 'notifier', 'kafka', 'db', 'replicas', 'soak'];
const only = option('only')?.split(',');
for (const key of only ?? []) if (!KEYS.includes(key)) throw new Error(`--only: unknown scenario "${key}" (one of ${KEYS.join(', ')})`);
const wanted = (key: string) => (only ? only.includes(key) : key !== 'baseline');

function table(results: ScenarioResult[]): string {
  const head = ['scenario', 'accepted', 'due', 'delivered', 'duplicates', 'lost', 'missing regs', '5xx (503)', 'result'];
  const rows = results.map((r) =>
    [r.scenario, r.accepted, r.due, r.delivered, r.duplicates, r.lost, r.missingRegistrations, `${r.status5xx} (${r.status503})`, r.pass ? 'PASS' : 'FAIL'].map(
      String,
    ),
  );
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function soakTable(s: SoakResult): string {
  const fmt = (v: number | undefined) => (v === undefined ? '-' : String(v));
  const lines = ['| process | RSS MB start → end | heap MB start → end | event-loop delay p50/p99 ms start → end |', '|---|---|---|---|'];
  for (const { process: name, start, end } of s.stats) {
    lines.push(
      `| ${name} | ${fmt(start?.rssMb)} → ${fmt(end?.rssMb)} | ${fmt(start?.heapMb)} → ${fmt(end?.heapMb)} | ${fmt(start?.eldP50Ms)}/${fmt(start?.eldP99Ms)} → ${fmt(end?.eldP50Ms)}/${fmt(end?.eldP99Ms)} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  if (!infraControlAvailable()) {
    process.stderr.write('run the fault tests with `npm run faults`: they stop and start a private broker and database\n');
    return 2;
  }
  const scenarios: Array<[string, (s: StormSettings) => Promise<ScenarioResult>]> = [
    ['baseline', baseline],
    ['ingest', ingestKill],
    ['matcher', matcherKill],
    ['notifier', notifierKill],
    ['kafka', kafkaRestart],
    ['db', databaseStop],
    ['replicas', () => replicaKill(replicaSettings)],
  ];
  const results: ScenarioResult[] = [];
  let soakResult: SoakResult | undefined;
  const failed = (scenario: string, error: unknown): ScenarioResult => ({
    scenario,
    accepted: 0,
    due: 0,
    delivered: 0,
    duplicates: 0,
    lost: 0,
    missingRegistrations: 0,
    status5xx: 0,
    status503: 0,
    pass: false,
    notes: [`error: ${error instanceof Error ? error.message : String(error)}`],
  });
  for (const [key, run] of scenarios) {
    if (!wanted(key)) continue;
    const load =
      key === 'replicas'
        ? `city storm for ${replicaSettings.seconds} s over ${replicaSettings.city} + ${replicaSettings.elsewhere} registrations, 2 replicas of each stage`
        : `storm of ${settings.rate} strikes/s for ${settings.seconds} s with ${settings.due} due deliveries`;
    process.stdout.write(`[faults] ${key}: ${load} ...\n`);
    const began = Date.now();
    const result = await run(settings).catch((error: unknown) => failed(key, error));
    result.notes.push(`wall time ${((Date.now() - began) / 1000).toFixed(0)} s`);
    process.stdout.write(`[faults] ${result.scenario}: ${result.pass ? 'PASS' : 'FAIL'}; ${result.notes.join('; ')}\n`);
    results.push(result);
  }
  if (wanted('soak')) {
    process.stdout.write(`[faults] soak for ${soakMinutes} min ...\n`);
    try {
      soakResult = await soak(soakMinutes);
      results.push(soakResult.result);
      process.stdout.write(`[faults] ${soakResult.result.scenario}: ${soakResult.result.pass ? 'PASS' : 'FAIL'}; ${soakResult.result.notes.join('; ')}\n`);
    } catch (error) {
      results.push(failed('soak', error));
    }
  }
  process.stdout.write(`\n${table(results)}\n`);
  if (soakResult) process.stdout.write(`\nSoak, per process:\n\n${soakTable(soakResult)}\n`);
  for (const r of results) if (!r.pass) process.stdout.write(`\nFAILED ${r.scenario}: ${r.notes.join('; ')}\n`);
  return results.every((r) => r.pass) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
