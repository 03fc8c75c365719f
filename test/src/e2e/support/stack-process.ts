import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from './repo.js';

/** What the e2e stack is told through its environment (the README's settings, for a second stack). */
export interface StackSettings {
  /** STORMHOOK_INSTANCE: own logs, pid files and lock beside a developer's stack. */
  instance: string;
  topicPrefix: string;
  dbPrefix: string;
  gatewayPort: number;
  grpcBasePort: number;
  admin: { email: string; password: string };
  /** Any other variable (service settings such as NOTIFIER_SSRF_ALLOW_CIDRS). */
  extraEnv: Record<string, string>;
  /** Variables of this process not to pass on (e.g. KAFKA_BROKERS, for a stack with its own broker). */
  unset?: readonly string[];
}

export interface StackProcess {
  readonly baseUrl: string;
  readonly pid: number;
  /** The environment the stack runs with: operator commands (the slot CLI) need the same. */
  readonly env: NodeJS.ProcessEnv;
  /** The last lines the stack printed, for failure messages. */
  tail(lines?: number): string;
  /** Ctrl-C, as the README says, and the exit code once it has stopped (null: killed by a signal). */
  interrupt(timeoutMs: number): Promise<number | null>;
  /** Processes still carrying this stack's instance name in their environment. */
  leftovers(): number[];
  /** SIGKILL for whatever is left: the last resort after a failed stop. */
  kill(): void;
}

const UP_LINE = /Stormhook is up: (http:\/\/\S+)/;
const TAIL_LINES = 300;

/** Variables of the developer's shell that would make the e2e stack collide with theirs. */
const NOT_INHERITED = ['METRICS_PORT', 'STORMHOOK_FEED_SIM', 'STORMHOOK_FEED_SIM_ARGS'];

/**
 * Processes whose environment holds `marker`: every process of the stack inherits it, so this finds
 * the supervisor, the services and anything they left, whatever their process group.
 */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found; // no procfs: nothing can be checked this way
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (
        readFileSync(join('/proc', entry, 'environ'), 'latin1')
          .split('\0')
          .includes(marker)
      )
        found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/**
 * Starts the stack as the README tells a user (`node scripts/bootstrap.mjs start`, which is what
 * `npm start` runs) from the repository root, and resolves once it prints "Stormhook is up".
 * Every line it prints goes to .stack/logs/<instance>/console.log; the last ones are kept for errors.
 */
export async function launchStack(settings: StackSettings, startTimeoutMs: number): Promise<StackProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [...NOT_INHERITED, ...(settings.unset ?? [])]) delete env[name];
  Object.assign(env, {
    STORMHOOK_INSTANCE: settings.instance,
    STORMHOOK_TOPIC_PREFIX: settings.topicPrefix,
    STORMHOOK_DB_PREFIX: settings.dbPrefix,
    STORMHOOK_GATEWAY_PORT: String(settings.gatewayPort),
    STORMHOOK_GRPC_BASE_PORT: String(settings.grpcBasePort),
    STORMHOOK_ADMIN_EMAIL: settings.admin.email,
    STORMHOOK_ADMIN_PASSWORD: settings.admin.password,
    // Logs go to files; mocha's LOG_LEVEL=silent would leave nothing to debug a failure with.
    LOG_LEVEL: 'info',
    ...settings.extraEnv,
  });
  const logDir = join(repoRoot, '.stack', 'logs', settings.instance);
  mkdirSync(logDir, { recursive: true });
  const consoleLog: WriteStream = createWriteStream(join(logDir, 'console.log'), { flags: 'a' });
  const lines: string[] = [];
  const child: ChildProcess = spawn(process.execPath, [join(repoRoot, 'scripts', 'bootstrap.mjs'), 'start'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let up: ((url: string) => void) | undefined;
  const upLine = new Promise<string>((resolve) => (up = resolve));
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    // Always drained: a full pipe would block the supervisor's console and with it every service.
    createInterface({ input: stream }).on('line', (line) => {
      consoleLog.write(`${line}\n`);
      lines.push(line);
      if (lines.length > TAIL_LINES) lines.shift();
      const match = UP_LINE.exec(line);
      if (match?.[1]) up?.(match[1]);
    });
  }
  const tail = (count = 60) => lines.slice(-count).join('\n');
  const marker = `STORMHOOK_INSTANCE=${settings.instance}`;
  const killAll = () => {
    for (const pid of processesWith(marker)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };

  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    upLine.then((url) => ({ url })),
    exited.then((code) => ({ exitedWith: code })),
    new Promise<{ timedOut: true }>((resolve) => (timer = setTimeout(() => resolve({ timedOut: true }), startTimeoutMs))),
  ]);
  clearTimeout(timer);
  if (!('url' in outcome)) {
    killAll();
    const why = 'timedOut' in outcome ? `did not print "Stormhook is up" within ${startTimeoutMs / 1000} s` : `exited with ${outcome.exitedWith} during start`;
    throw new Error(`the stack ${why}; last lines:\n${tail()}`);
  }
  return {
    baseUrl: outcome.url,
    pid: child.pid ?? 0,
    env,
    tail,
    leftovers: () => processesWith(marker),
    kill: killAll,
    async interrupt(timeoutMs) {
      child.kill('SIGINT');
      let stopTimer: NodeJS.Timeout | undefined;
      const code = await Promise.race([exited, new Promise<'timeout'>((resolve) => (stopTimer = setTimeout(() => resolve('timeout'), timeoutMs)))]);
      clearTimeout(stopTimer);
      consoleLog.end();
      if (code === 'timeout') throw new Error(`the stack did not stop within ${timeoutMs / 1000} s of Ctrl-C; last lines:\n${tail()}`);
      return code;
    },
  };
}
