import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { paths } from '../paths.js';

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Called with every output line, e.g. to echo a service's log to the console. */
  onLine?: (line: string) => void;
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

  constructor(readonly spec: ProcessSpec) {
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
        rmSync(this.pidFile, { force: true });
        log.end();
        resolve(code);
      });
      this.child.on('error', (error) => {
        log.write(`spawn failed: ${error.message}\n`);
        this.exited = true;
        resolve(-1);
      });
    });
    if (this.child.pid) writeFileSync(this.pidFile, `${this.child.pid}\n${spec.command}\n`);
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
