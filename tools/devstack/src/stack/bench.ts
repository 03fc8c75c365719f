import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { BENCH_RESULT_PREFIX, machineDescription, type BenchResult } from '@stormhook/testing';
import type { DevstackConfig } from '../config.js';
import { ensureInfra } from '../infra/infra.js';
import { repoRoot } from '../paths.js';
import { nodeFlags } from './node-flags.js';
import { runnerEnv } from './runner-env.js';

type Log = (message: string) => void;

/** Every compiled benchmark: `<services|packages>/<name>/dist/bench/*-bench.js` and `test/dist/bench/`. */
function benchFiles(): string[] {
  const files: string[] = [];
  const dirs = ['services', 'packages', 'tools'].flatMap((group) =>
    readdirSync(join(repoRoot, group)).map((name) => join(repoRoot, group, name, 'dist', 'bench')),
  );
  for (const dir of [...dirs, join(repoRoot, 'test', 'dist', 'bench')]) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort()) if (file.endsWith('-bench.js')) files.push(join(dir, file));
  }
  return files;
}

/** How long a benchmark may run unless it says otherwise: long enough for any at its defaults but the few that declare more. */
export const DEFAULT_TIME_LIMIT_MINUTES = 15;
const TIME_LIMIT_DIRECTIVE = /bench-time-limit:\s*(\d+)\s*min/;

/**
 * The time limit a benchmark declares in its source (`bench-time-limit: 45 min` in a comment, which
 * the compiled file keeps), or the default. A benchmark whose defaults take longer than 15 minutes
 * (the city storm, the webhook health log of a week) says so where its sizes are chosen; the limit
 * is there to end a hung run, not to cut a long one short.
 */
export function timeLimitMinutes(source: string): number {
  const declared = TIME_LIMIT_DIRECTIVE.exec(source)?.[1];
  return declared ? Math.max(1, Number(declared)) : DEFAULT_TIME_LIMIT_MINUTES;
}

function runOne(file: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number; timedOut: boolean; results: BenchResult[] }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [...nodeFlags, '--expose-gc', file], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
    const results: BenchResult[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith(BENCH_RESULT_PREFIX)) results.push(JSON.parse(line.slice(BENCH_RESULT_PREFIX.length)) as BenchResult);
      else process.stdout.write(`  ${line}\n`);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? 1, timedOut, results });
    });
  });
}

function markdown(rows: Array<BenchResult & { file: string }>, failed: string[]): string {
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const lines = [
    '# Benchmark results',
    '',
    `Measured ${date} UTC on ${machineDescription()} by \`npm run bench\`.`,
    'Each figure comes from one run; the machine may have been doing other work. Re-run to compare.',
    '',
    '| benchmark | metric | value | unit | notes |',
    '|---|---|---:|---|---|',
    ...rows.map((r) => `| ${r.bench} | ${r.metric} | ${r.value.toLocaleString('en', { maximumFractionDigits: 2 })} | ${r.unit} | ${r.note ?? ''} |`),
  ];
  if (failed.length > 0) lines.push('', `Failed or timed out: ${failed.join(', ')}.`);
  return `${lines.join('\n')}\n`;
}

const README_START = '<!-- bench-results:start (written by npm run bench) -->';
const README_END = '<!-- bench-results:end -->';

/** Puts the table into the README between its markers, so the README always shows the latest run. */
function updateReadme(report: string): void {
  const file = join(repoRoot, 'README.md');
  const readme = readFileSync(file, 'utf8');
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) return;
  const body = report.replace(/^# Benchmark results\n\n/, '');
  writeFileSync(file, `${readme.slice(0, start + README_START.length)}\n${body}${readme.slice(end)}`);
}

/**
 * `npm run bench`: runs every benchmark against the real Kafka and database, prints their output,
 * and writes the figures they report to bench/RESULTS.md (the README points there).
 */
export async function runBenchmarks(config: DevstackConfig, log: Log): Promise<number> {
  const infra = await ensureInfra(config, log);
  const rows: Array<BenchResult & { file: string }> = [];
  const failed: string[] = [];
  try {
    const env = runnerEnv(infra, 'warn');
    for (const file of benchFiles()) {
      const name = relative(repoRoot, file);
      const minutes = timeLimitMinutes(readFileSync(file, 'utf8'));
      log(`running ${name} (time limit ${minutes} min)`);
      const { code, timedOut, results } = await runOne(file, env, minutes * 60_000);
      if (timedOut) failed.push(`${name} (stopped at its ${minutes}-min limit)`);
      else if (code !== 0) failed.push(name);
      rows.push(...results.map((r) => ({ ...r, file: name })));
    }
  } finally {
    await infra.stop();
  }
  mkdirSync(join(repoRoot, 'bench'), { recursive: true });
  const report = markdown(rows, failed);
  writeFileSync(join(repoRoot, 'bench', 'RESULTS.md'), report);
  updateReadme(report);
  log(`${rows.length} figures written to bench/RESULTS.md${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
  return failed.length === 0 ? 0 : 1;
}
