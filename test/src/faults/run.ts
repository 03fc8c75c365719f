// `npm run faults`: the fault scenarios and the soak against the private Kafka and FerretDB the
// devstack `faults` command starts (it passes KAFKA_BROKERS / MONGO_URL and serves stop/start
// requests over IPC). Options: --soak-minutes N (default SOAK_MINUTES or 10), --only a,b (scenario
// keys: notifier, kafka, db, matcher, soak).
import { infraControlAvailable } from './infra-control.js';
import { databaseStop, kafkaRestart, matcherKill, notifierKill, type ScenarioResult } from './scenarios.js';
import { soak, type SoakResult } from './soak.js';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const soakMinutes = Number(option('soak-minutes') ?? process.env['SOAK_MINUTES'] ?? 10);
const only = option('only')?.split(',');
const wanted = (key: string) => !only || only.includes(key);

function table(results: ScenarioResult[]): string {
  const head = ['scenario', 'accepted', 'due', 'delivered', 'duplicates', 'lost', 'missing regs', '5xx (503)', 'result'];
  const rows = results.map((r) => [r.scenario, r.accepted, r.due, r.delivered, r.duplicates, r.lost, r.missingRegistrations, `${r.status5xx} (${r.status503})`, r.pass ? 'PASS' : 'FAIL'].map(String));
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function soakTable(s: SoakResult): string {
  const fmt = (v: number | undefined) => (v === undefined ? '-' : String(v));
  const lines = ['| process | RSS MB start → end | heap MB start → end | event-loop delay p50/p99 ms start → end |', '|---|---|---|---|'];
  for (const { process: name, start, end } of s.stats) {
    lines.push(`| ${name} | ${fmt(start?.rssMb)} → ${fmt(end?.rssMb)} | ${fmt(start?.heapMb)} → ${fmt(end?.heapMb)} | ${fmt(start?.eldP50Ms)}/${fmt(start?.eldP99Ms)} → ${fmt(end?.eldP50Ms)}/${fmt(end?.eldP99Ms)} |`);
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  if (!infraControlAvailable()) {
    process.stderr.write('run the fault tests with `npm run faults`: they stop and start a private broker and database\n');
    return 2;
  }
  const scenarios: Array<[string, () => Promise<ScenarioResult>]> = [
    ['notifier', notifierKill],
    ['kafka', kafkaRestart],
    ['db', databaseStop],
    ['matcher', matcherKill],
  ];
  const results: ScenarioResult[] = [];
  let soakResult: SoakResult | undefined;
  const failed = (scenario: string, error: unknown): ScenarioResult => ({
    scenario, accepted: 0, due: 0, delivered: 0, duplicates: 0, lost: 0, missingRegistrations: 0, status5xx: 0, status503: 0, pass: false,
    notes: [`error: ${error instanceof Error ? error.message : String(error)}`],
  });
  for (const [key, run] of scenarios) {
    if (!wanted(key)) continue;
    process.stdout.write(`[faults] ${key} ...\n`);
    const result = await run().catch((error: unknown) => failed(key, error));
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
