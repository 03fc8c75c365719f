import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { paths } from '../paths.js';

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Called with every output line, e.g. to echo a service's log to the console. */
  onLine?: (line: string) => void;
  /** Infrastructure stops after every service (default 'service'). */
  role?: 'service' | 'infra';
}

/** Every process started here and not yet exited, in start order. */
const live = new Set<ManagedProcess>();
let watchdog: ChildProcess | undefined;

/**
 * The watchdog (watchdog.ts) of this supervisor, started with the first managed process: it stops
 * what is left when the supervisor dies without stopping it (a SIGKILL, a crash).
 */
function watch(message: { op: 'watch'; pgid: number; role: 'service' | 'infra'; name: string } | { op: 'unwatch'; pgid: number }): void {
  if (!watchdog) {
    mkdirSync(paths.logs, { recursive: true });
    watchdog = spawn(process.execPath, [fileURLToPath(new URL('./watchdog.js', import.meta.url)), join(paths.logs, 'watchdog.log')], {
      detached: true,
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    // Neither the process nor its channel may keep the supervisor alive.
    watchdog.unref();
    watchdog.channel?.unref();
  }
  if (watchdog.connected) watchdog.send(message);
}

/**
 * Stops every managed process still running: the services together, then the infrastructure one by
 * one, newest first (the same order the watchdog keeps when the supervisor is gone).
 */
export async function stopAllManaged(serviceGraceMs = 15_000): Promise<void> {
  const running = [...live];
  await Promise.all(running.filter((p) => p.role === 'service').map((p) => p.stop(serviceGraceMs)));
  for (const proc of running.filter((p) => p.role === 'infra').reverse()) await proc.stop();
}

/**
 * A child process in its own process group, so that the terminal's Ctrl-C reaches only the
 * supervisor, which then stops services before the infrastructure they need. Its output goes to
 * .stack/logs/<name>.log and its pid to .stack/run/<name>.pid, so that a supervisor that died
 * without cleaning up can have its orphans stopped by the next start.
 */
export class ManagedProcess {
  readonly logFile: string;
  private readonly child: ChildProcess;
  private exited = false;
  private readonly exitPromise: Promise<number | null>;

  readonly role: 'service' | 'infra';

  constructor(readonly spec: ProcessSpec) {
    this.role = spec.role ?? 'service';
    mkdirSync(paths.logs, { recursive: true });
    mkdirSync(paths.run, { recursive: true });
    this.logFile = join(paths.logs, `${spec.name}.log`);
    const log = createWriteStream(this.logFile, { flags: 'a' });
    this.child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (!stream) continue;
      stream.pipe(log, { end: false });
      if (spec.onLine) createInterface({ input: stream }).on('line', spec.onLine);
    }
    this.exitPromise = new Promise((resolve) => {
      this.child.on('exit', (code) => {
        this.exited = true;
        live.delete(this);
        if (this.child.pid) watch({ op: 'unwatch', pgid: this.child.pid });
        rmSync(this.pidFile, { force: true });
        resolve(code);
      });
      // 'exit' may come before the last output is read from the pipes; ending the log there made a late
      // line a write after end, which crashed the supervisor mid-stop. 'close' comes after the pipes.
      this.child.on('close', () => log.end());
      this.child.on('error', (error) => {
        log.write(`spawn failed: ${error.message}\n`);
        this.exited = true;
        live.delete(this);
        resolve(-1);
      });
    });
    if (this.child.pid) {
      writeFileSync(this.pidFile, `${this.child.pid}\n${spec.command}\n`);
      live.add(this);
      watch({ op: 'watch', pgid: this.child.pid, role: this.role, name: spec.name });
    }
  }

  private get pidFile(): string {
    return join(paths.run, `${this.spec.name}.pid`);
  }

  get alive(): boolean {
    return !this.exited;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  waitForExit(): Promise<number | null> {
    return this.exitPromise;
  }

  /** SIGTERM to the whole group, then SIGKILL if it has not exited after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.exited || !this.child.pid) return;
    signalGroup(this.child.pid, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(this.child.pid!, 'SIGKILL'), graceMs);
    await this.exitPromise;
    clearTimeout(timer);
    // The group may hold grandchildren (a JVM's forks); make sure none outlives its parent.
    signalGroup(this.child.pid, 'SIGKILL');
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Stops processes a previous supervisor left behind (it was killed before it could clean up). */
export function reapOrphans(log: (message: string) => void): void {
  let files: string[];
  try {
    files = readdirSync(paths.run).filter((f) => f.endsWith('.pid'));
  } catch {
    return;
  }
  for (const file of files) {
    const [pidText, command] = readFileSync(join(paths.run, file), 'utf8').split('\n');
    const pid = Number(pidText);
    if (Number.isInteger(pid) && pid > 0 && isOurs(pid, command ?? '')) {
      log(`stopping ${file.replace(/\.pid$/, '')} (pid ${pid}) left over from an earlier run`);
      signalGroup(pid, 'SIGKILL');
    }
    rmSync(join(paths.run, file), { force: true });
  }
}

function isOurs(pid: number, command: string): boolean {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return command.length > 0 && cmdline.includes(command.split('/').pop() ?? command);
  } catch {
    return false;
  }
}
