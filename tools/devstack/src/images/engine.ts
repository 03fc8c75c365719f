import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTool, tail, type ToolRun } from '../deploy/run-tool.js';
import { imagesDir } from './image-paths.js';

type Log = (message: string) => void;

/** The container engine every image step runs through: podman (with our own config) or Docker. */
export interface Engine {
  name: 'podman' | 'docker';
  /** Runs the engine with its environment (CONTAINERS_CONF for podman). */
  run(args: readonly string[], options?: { timeoutMs?: number; input?: string }): Promise<ToolRun>;
  /** Like run, but a non-zero exit throws with the command and the end of its output. */
  must(args: readonly string[], options?: { timeoutMs?: number; input?: string }): Promise<string>;
}

/** The tools the image steps need on a Debian host, and the apt package that brings each. */
// catatonit: the pause process of a pod's infra container (`podman kube play` builds its pause image from it).
const PACKAGE_OF: Record<string, string> = { podman: 'podman', buildah: 'buildah', runc: 'runc', mmdebstrap: 'mmdebstrap', catatonit: 'catatonit' };

export async function commandExists(cmd: string): Promise<boolean> {
  return (await runTool('sh', ['-c', `command -v ${cmd}`])).code === 0;
}

/**
 * Chooses the engine: STORMHOOK_IMAGE_ENGINE when set; else podman when installed; else Docker
 * when its daemon answers; else podman installed with apt-get when this is a Debian host and we
 * are root (saying what is installed), or a failure naming the packages to install.
 */
export async function ensureEngine(wanted: 'podman' | 'docker' | undefined, log: Log): Promise<Engine> {
  if (wanted === 'docker' || (wanted === undefined && !(await commandExists('podman')) && (await dockerAnswers()))) {
    if (!(await dockerAnswers())) throw new Error('STORMHOOK_IMAGE_ENGINE=docker, but `docker info` fails: is the Docker daemon running and reachable?');
    await ensureHostTools(['mmdebstrap'], log);
    log('engine: docker');
    // The Dockerfile's cache and secret mounts need BuildKit (the legacy builder rejects --secret).
    return engine('docker', { ...process.env, DOCKER_BUILDKIT: '1' });
  }
  await ensureHostTools(['podman', 'buildah', 'runc', 'catatonit', 'mmdebstrap'], log);
  const conf = await writeContainersConf();
  log(`engine: podman (CONTAINERS_CONF=${conf})`);
  return engine('podman', { ...process.env, CONTAINERS_CONF: conf });
}

async function dockerAnswers(): Promise<boolean> {
  if (!(await commandExists('docker'))) return false;
  return (await runTool('docker', ['info', '--format', '{{.ServerVersion}}'], { timeoutMs: 15_000 })).code === 0;
}

function engine(name: 'podman' | 'docker', env: NodeJS.ProcessEnv): Engine {
  const run: Engine['run'] = (args, options = {}) => runTool(name, args, { env, ...options });
  return {
    name,
    run,
    async must(args, options) {
      const result = await run(args, options);
      if (result.code !== 0) throw new Error(`${name} ${args.slice(0, 3).join(' ')} ... failed (exit ${result.code}):\n${tail(result)}`);
      return result.stdout;
    },
  };
}

/** Installs the missing tools with apt-get when we are root on Debian, else fails naming the packages. */
async function ensureHostTools(tools: readonly string[], log: Log): Promise<void> {
  const missing: string[] = [];
  for (const tool of tools) if (!(await commandExists(tool))) missing.push(PACKAGE_OF[tool] ?? tool);
  if (missing.length === 0) return;
  const isRoot = process.getuid?.() === 0;
  const hasApt = await commandExists('apt-get');
  if (!isRoot || !hasApt) {
    throw new Error(
      `missing ${missing.join(', ')}: install them first (Debian/Ubuntu: sudo apt-get install ${missing.join(' ')}; ` +
        'or set STORMHOOK_IMAGE_ENGINE=docker where a Docker daemon runs, which still needs mmdebstrap for the base image)',
    );
  }
  log(`installing ${missing.join(' ')} with apt-get (missing on this host)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = await runTool('apt-get', ['update'], { env, timeoutMs: 10 * 60_000 });
  if (update.code !== 0) throw new Error(`apt-get update failed:\n${tail(update)}`);
  const install = await runTool('apt-get', ['install', '--yes', '--no-install-recommends', ...missing], { env, timeoutMs: 15 * 60_000 });
  if (install.code !== 0) throw new Error(`apt-get install ${missing.join(' ')} failed:\n${tail(install)}`);
  log(`installed ${missing.join(' ')}`);
}

/** The host's hard limit of a resource (`ulimit -H<flag>`), or undefined when unlimited or unknown. */
async function hardLimit(flag: 'n' | 'u'): Promise<number | undefined> {
  const run = await runTool('sh', ['-c', `ulimit -H${flag}`]);
  const value = Number(run.stdout.trim());
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * podman's configuration for this host kind, written under .stack/images (ignored) and passed as
 * CONTAINERS_CONF, so the machine's own configuration is never touched: runc (crun fails on hybrid
 * cgroups), cgroupfs (no systemd to manage them), events to a file (no journald), and container
 * ulimits within the host's hard limits (podman's defaults exceed them and runc then refuses).
 */
export async function writeContainersConf(): Promise<string> {
  const [nofile, nproc] = [Math.min(16384, (await hardLimit('n')) ?? 16384), Math.min(8192, (await hardLimit('u')) ?? 8192)];
  mkdirSync(imagesDir, { recursive: true });
  const file = join(imagesDir, 'containers.conf');
  writeFileSync(
    file,
    [
      '# Written by `npm run images` (tools/devstack/src/images/engine.ts); rewritten on every run.',
      '[containers]',
      `default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]`,
      '',
      '[engine]',
      'runtime = "runc"',
      'cgroup_manager = "cgroupfs"',
      'events_logger = "file"',
      '',
    ].join('\n'),
  );
  return file;
}
