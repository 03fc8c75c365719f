import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface Stats {
  rssMb: number;
  heapMb: number;
  eldP50Ms: number;
  eldP99Ms: number;
}

/** A service's real dist/main.js as a child process, so a scenario can kill it with SIGKILL. */
export interface ServiceChild {
  name: string;
  port: number;
  child: ChildProcess;
  lines: string[];
  /** The latest figures the stats preload printed (every 2 s). */
  stats: Stats | undefined;
  exited: Promise<number | string | null>;
  /** The signal a scenario (or the world's stop) sent it; unset while nobody tried to stop it. */
  killedWith: NodeJS.Signals | undefined;
  kill(signal: NodeJS.Signals): Promise<number | string | null>;
}

/** A child that is gone although nobody stopped it: it crashed or gave up by itself. */
export function diedByItself(c: ServiceChild): boolean {
  return c.killedWith === undefined && (c.child.exitCode !== null || c.child.signalCode !== null);
}

export const STATS_PREFIX = 'FAULTS_STATS ';

/** Starts services/<service>/dist/main.js on gRPC `port` and resolves once it logged "started". */
export async function spawnService(name: string, service: string, env: Record<string, string>, port: number, timeoutMs = 60_000): Promise<ServiceChild> {
  const main = fileURLToPath(new URL(`../../../services/${service}/dist/main.js`, import.meta.url));
  const preload = fileURLToPath(new URL('./stats-preload.js', import.meta.url));
  // STORMHOOK_CHILD_CPU_PROF_DIR: each child writes V8's CPU profile there when it exits (not after a
  // kill -9); bench/profile-summary.ts says where the time went.
  const profileDir = process.env['STORMHOOK_CHILD_CPU_PROF_DIR'];
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.${Date.now()}.cpuprofile`] : [];
  const child = spawn(process.execPath, [...profile, '--disable-warning=TimeoutNegativeWarning', '--import', preload, main], {
    env: { ...process.env, ...env, GRPC_PORT: String(port), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const running: ServiceChild = {
    name,
    port,
    child,
    lines,
    stats: undefined,
    exited,
    killedWith: undefined,
    async kill(signal) {
      running.killedWith ??= signal;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  const keep = (line: string) => {
    if (line.startsWith(STATS_PREFIX)) running.stats = JSON.parse(line.slice(STATS_PREFIX.length)) as Stats;
    else if (lines.push(line) > 5_000) lines.shift();
  };
  createInterface({ input: child.stderr! }).on('line', keep);
  let ready = false;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs} ms:\n${lines.slice(-20).join('\n')}`)), timeoutMs);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      keep(line);
      if (!ready && line.includes('"msg":"started"')) {
        ready = true;
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`${name} exited with ${String(code)} before it started:\n${lines.slice(-20).join('\n')}`));
    });
  });
  return running;
}
