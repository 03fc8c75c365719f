import { spawn } from 'node:child_process';

export interface ToolRun {
  /** Exit code; -1 when the process could not be started at all. */
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunToolOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to the tool's stdin (how `helm template` output is piped to kubeconform). */
  input?: string;
  timeoutMs?: number;
}

/**
 * Runs a check tool and reports its outcome as a value: the negative chart test needs a failing
 * run's output, so a non-zero exit is not thrown.
 */
export function runTool(cmd: string, args: readonly string[], options: RunToolOptions = {}): Promise<ToolRun> {
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, [...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let settled = false;
    const finish = (run: ToolRun) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolvePromise(run);
    };
    const timer = setTimeout(
      () => {
        child.kill('SIGKILL');
        finish({ code: -1, stdout, stderr: `${stderr}\n${cmd} timed out after ${options.timeoutMs} ms` });
      },
      options.timeoutMs ?? 15 * 60_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => finish({ code: -1, stdout, stderr: `cannot run ${cmd}: ${error.message}` }));
    child.on('close', (code) => finish({ code: code ?? -1, stdout, stderr }));
    if (options.input !== undefined && child.stdin) {
      // A tool that exits early closes its stdin; the resulting EPIPE is its answer, not ours to throw.
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input);
    }
  });
}

/** The last lines of a run's output, for an error message that stays readable. */
export function tail(run: ToolRun, chars = 3000): string {
  const text = `${run.stdout}${run.stderr}`.trim();
  return text.length > chars ? `...${text.slice(-chars)}` : text;
}
