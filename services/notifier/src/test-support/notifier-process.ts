import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** A notifier running its real dist/main.js as a separate process. */
export interface NotifierProcess {
  child: ChildProcess;
  grpcPort: number;
  lines: string[];
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string | null>;
}

/** Starts services/notifier/dist/main.js with `env` and resolves once it logged "started". */
export async function spawnNotifier(env: Record<string, string>, timeoutMs = 30_000): Promise<NotifierProcess> {
  const main = fileURLToPath(new URL('../main.js', import.meta.url));
  const child = spawn(process.execPath, ['--disable-warning=TimeoutNegativeWarning', main], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
  let grpcPort = 0;
  let ready = false;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`notifier did not start within ${timeoutMs} ms:\n${lines.join('\n')}`)), timeoutMs);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.includes('"msg":"gRPC server listening"')) grpcPort = Number((JSON.parse(line) as { port: number }).port);
      if (line.includes('"msg":"started"')) ready = true;
      // Two loggers write these lines (runMain's and the service's), so they may come in either order.
      if (ready && grpcPort > 0) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`notifier exited with ${String(code)} before it started:\n${lines.join('\n')}`));
    });
  });
  return { child, grpcPort, lines, exited };
}
