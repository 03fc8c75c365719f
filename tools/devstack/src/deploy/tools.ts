import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../paths.js';
import { stampMatches, writeStamp } from '../infra/stamp.js';
import { runTool, tail } from './run-tool.js';

/**
 * The check tools, built from the Go module proxy (the same route the stack takes for FerretDB)
 * and cached under .stack/cache/tools. Bumping a version here rebuilds that tool once.
 */
export interface GoTool {
  name: string;
  /** The package whose main is built. */
  pkg: string;
  version: string;
}

export const HELM: GoTool = { name: 'helm', pkg: 'helm.sh/helm/v3/cmd/helm', version: 'v3.22.0' };
export const KUBECONFORM: GoTool = { name: 'kubeconform', pkg: 'github.com/yannh/kubeconform/cmd/kubeconform', version: 'v0.8.0' };
// go.starlark.net publishes no tags: a pseudo-version pins one commit.
export const STARLARK: GoTool = { name: 'starlark', pkg: 'go.starlark.net/cmd/starlark', version: 'v0.0.0-20260908191801-89a6a09411d5' };

export const toolsDir = join(paths.cache, 'tools');

export function goEnv(): NodeJS.ProcessEnv {
  // Module and build caches shared with the FerretDB build, so a module is fetched once per machine.
  return {
    ...process.env,
    GOMODCACHE: join(paths.cache, 'go', 'mod'),
    GOCACHE: join(paths.cache, 'go', 'build'),
    GOFLAGS: '-mod=mod',
    CGO_ENABLED: '0',
  };
}

export function toolPath(tool: GoTool): string {
  return join(toolsDir, `${tool.name}-${tool.version}`, tool.name);
}

/** Builds `tool` with `go install` unless the cached binary matches its pinned version. */
export async function ensureGoTool(tool: GoTool, log: (m: string) => void): Promise<string> {
  const binary = toolPath(tool);
  const dir = join(toolsDir, `${tool.name}-${tool.version}`);
  const stamp = join(dir, '.installed');
  const spec = `${tool.pkg}@${tool.version}`;
  if (existsSync(binary) && stampMatches(stamp, spec)) return binary;
  log(`building ${spec} with Go from the module proxy (first run only)`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const run = await runTool('go', ['install', '-trimpath', spec], { env: { ...goEnv(), GOBIN: dir } });
  if (run.code !== 0) {
    const why = run.code === -1 ? 'is Go 1.26+ installed and on PATH?' : 'is the Go module proxy reachable?';
    throw new Error(`cannot build ${tool.name} (${spec}); ${why}\n${tail(run)}`);
  }
  if (!existsSync(binary)) throw new Error(`go install ${spec} succeeded but left no ${binary}`);
  writeStamp(stamp, spec);
  log(`built ${tool.name} ${tool.version} in ${Math.round((Date.now() - started) / 1000)} s`);
  return binary;
}
