import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { testKafkaEnv } from '@stormhook/testing';
import { repoRoot } from '../e2e/support/repo.js';

/**
 * The feed simulator (services/ingest/dist/sim/cli.js), as `npm start` runs it, on a test stack's
 * prefixed topics: storms, lightning and rain over Turkey with the demo thunderstorm over Ankara,
 * the last `backfill` published at once, then live. No forecasts (the console does not draw them).
 */
export function startSimulator(topicPrefix: string, args: string[] = []): { stop(): Promise<void> } {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(repoRoot, 'services', 'ingest', 'dist', 'sim', 'cli.js'), '--demo-storm', 'ankara', '--backfill', '15m', '--no-forecast', '--seed', '7', ...args],
    {
      cwd: repoRoot,
      env: { ...process.env, ...testKafkaEnv(), STORMHOOK_TOPIC_PREFIX: topicPrefix, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}
