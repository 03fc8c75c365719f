import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './repo.js';

/** The alarm-matcher's operator command that evaluates one forecast delivery slot on demand. */
export const SLOT_CLI = join(repoRoot, 'services', 'alarm-matcher', 'dist', 'run-slot-cli.js');

export interface SlotOutcome {
  slotId: string;
  evaluated: boolean;
  registrations: number;
  notifications: number;
  forecastRunId?: string;
}

export function slotCliPresent(): boolean {
  return existsSync(SLOT_CLI);
}

/**
 * Runs `run-slot-cli --delivery <d> --date <day> [--rerun] [--wait-for-run <run>]` with the stack's own
 * environment, as an operator would beside the running service; the date is the injected clock. Resolves with the
 * outcome it prints as JSON.
 */
export function runSlot(
  env: NodeJS.ProcessEnv,
  delivery: 'MORNING' | 'EVENING',
  day: string,
  options: { rerun?: boolean; waitForRun?: string } = {},
): Promise<SlotOutcome> {
  return new Promise((resolve, reject) => {
    const args = [
      SLOT_CLI,
      '--delivery',
      delivery,
      '--date',
      day,
      ...(options.rerun ? ['--rerun'] : []),
      ...(options.waitForRun !== undefined ? ['--wait-for-run', options.waitForRun, '--wait-s', '60'] : []),
    ];
    const child = spawn(process.execPath, args, { env: { ...env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const outcome = out
        .split('\n')
        .map((line) => {
          try {
            return JSON.parse(line) as Partial<SlotOutcome>;
          } catch {
            return undefined;
          }
        })
        .find((value) => value && typeof value.slotId === 'string');
      if (code !== 0 || !outcome) reject(new Error(`run-slot-cli exited with ${code}:\n${out}\n${err}`));
      else resolve(outcome as SlotOutcome);
    });
  });
}
