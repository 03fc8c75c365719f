import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from './engine.js';
import { imagesDir } from './image-paths.js';

export interface ContainerSpec {
  name: string;
  image: string;
  env: Record<string, string>;
  /** host path -> container path, mounted read-only. */
  readOnlyMounts?: Record<string, string>;
  /** Label every container of one run carries, so a clean-up finds them all. */
  runLabel: string;
}

/**
 * Runs a service image the way the chart's security context runs it: uid/gid 1000, read-only root
 * filesystem with a small /tmp, all capabilities dropped, no privilege escalation, the engine's
 * default seccomp profile (RuntimeDefault). Host networking: the services bind 127.0.0.1 on ports
 * chosen free, so nothing is published on another address. The environment goes through a file
 * (mode 0600, removed after the start) so the secrets never show in a process list.
 */
export async function runContainer(engine: Engine, spec: ContainerSpec): Promise<void> {
  const dir = join(imagesDir, 'run');
  mkdirSync(dir, { recursive: true });
  const envFile = join(dir, `${spec.name}.env`);
  writeFileSync(
    envFile,
    // An env file has no quoting: a PEM key's line breaks go as the two characters \n, which the
    // services' key settings read back (identity's token key, the internal signing keys).
    Object.entries(spec.env)
      .map(([k, v]) => `${k}=${v.replace(/\r?\n/g, '\\n')}`)
      .join('\n') + '\n',
    { mode: 0o600 },
  );
  const mounts = Object.entries(spec.readOnlyMounts ?? {}).flatMap(([host, target]) => ['-v', `${host}:${target}:ro`]);
  try {
    await engine.must([
      'run',
      '--detach',
      '--name',
      spec.name,
      '--label',
      `stormhook.run=${spec.runLabel}`,
      '--network',
      'host',
      '--user',
      '1000:1000',
      '--read-only',
      '--tmpfs',
      '/tmp:rw,size=64m,mode=1777',
      '--cap-drop',
      'ALL',
      '--security-opt',
      'no-new-privileges',
      '--env-file',
      envFile,
      ...mounts,
      spec.image,
    ]);
  } finally {
    rmSync(envFile, { force: true });
  }
}

export async function isRunning(engine: Engine, name: string): Promise<boolean> {
  const run = await engine.run(['inspect', '--format', '{{.State.Running}}', name]);
  return run.code === 0 && run.stdout.trim() === 'true';
}

export async function containerLogs(engine: Engine, name: string, lines = 30): Promise<string> {
  const run = await engine.run(['logs', '--tail', String(lines), name]);
  return `${run.stdout}${run.stderr}`.trim();
}

/** Stops (SIGTERM, 15 s grace) and removes every container carrying the run's label. */
export async function removeRun(engine: Engine, runLabel: string): Promise<string[]> {
  const listed = await engine.run(['ps', '--all', '--quiet', '--filter', `label=stormhook.run=${runLabel}`]);
  const ids = listed.stdout
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length === 0) return [];
  await engine.run(['stop', '--time', '15', ...ids], { timeoutMs: 60_000 });
  await engine.run(['rm', '--force', ...ids], { timeoutMs: 60_000 });
  return ids;
}
