/**
 * Where a process's CPU time went, from V8 CPU profiles (`node --cpu-prof`, or a child of the faults
 * world with STORMHOOK_CHILD_CPU_PROF_DIR): self time by owner (our packages and services, each npm
 * package, Node's own modules, the garbage collector, idle) and the functions that cost the most.
 *
 *   node test/dist/bench/profile-summary.js [--top 12] <file.cpuprofile>...
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Who owns a frame: `pkg:<npm package>`, `ours:<workspace folder>`, `node:<module>`, or V8's pseudo-frames. */
export function ownerOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (url === '') return functionName === '' ? '(anonymous native)' : `(${functionName.replace(/^\(|\)$/g, '')})`;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pnpm) return `pkg:${pnpm[1]}`;
  const plain = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (plain) return `pkg:${plain[1]}`;
  const ours = /\/(services|packages)\/([^/]+)\//.exec(url);
  if (ours) return `ours:${ours[1]}/${ours[2]}`;
  return url;
}

export interface ProfileSummary {
  /** Sampled wall time, ms. */
  totalMs: number;
  /** Self time by owner, ms, largest first. */
  owners: Array<[string, number]>;
  /** Self time by function (owner, name, line), ms, largest first. */
  functions: Array<[string, number]>;
}

export function summarize(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const us = profile.timeDeltas[i] ?? 0;
    if (!node || us <= 0) return;
    totalUs += us;
    const owner = ownerOf(node.callFrame);
    owners.set(owner, (owners.get(owner) ?? 0) + us);
    const fn = `${owner} ${node.callFrame.functionName || '(anonymous)'}:${node.callFrame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  });
  const sorted = (m: Map<string, number>) => [...m.entries()].map(([k, us]) => [k, us / 1000] as [string, number]).sort((a, b) => b[1] - a[1]);
  return { totalMs: totalUs / 1000, owners: sorted(owners), functions: sorted(functions) };
}

function describe(file: string, summary: ProfileSummary, top: number): string {
  const busyMs = summary.totalMs - (summary.owners.find(([o]) => o === '(idle)')?.[1] ?? 0);
  const share = (ms: number) => `${((ms / Math.max(1, busyMs)) * 100).toFixed(1)} %`;
  const lines = [`${basename(file)}: ${(summary.totalMs / 1000).toFixed(1)} s sampled, ${(busyMs / 1000).toFixed(1)} s busy (shares below are of busy time)`];
  lines.push('  by owner:');
  for (const [owner, ms] of summary.owners.filter(([o]) => o !== '(idle)').slice(0, top)) lines.push(`    ${share(ms).padStart(7)}  ${owner}`);
  lines.push('  by function:');
  for (const [fn, ms] of summary.functions.filter(([f]) => !f.startsWith('(idle)')).slice(0, top)) lines.push(`    ${share(ms).padStart(7)}  ${fn}`);
  return lines.join('\n');
}

function main(): void {
  const { values, positionals } = parseArgs({ options: { top: { type: 'string', default: '12' } }, allowPositionals: true });
  const top = Number(values.top);
  if (!(top > 0)) throw new Error(`--top: "${values.top}" is not a positive number`);
  if (positionals.length === 0) throw new Error('usage: profile-summary [--top N] <file.cpuprofile>...');
  for (const file of positionals) console.log(describe(file, summarize(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile), top));
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) main();
