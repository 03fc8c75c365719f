import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { paths } from '../paths.js';
import { applyPatches, FERRETDB_PATCHES } from './ferretdb-patches.js';
import { exec } from './exec.js';
import { waitFor } from './net.js';
import { ManagedProcess } from './process.js';
import { stampMatches, writeStamp } from './stamp.js';

/** FerretDB 1.24 is the last line with the SQLite backend that needs no other database server. */
export const FERRETDB_VERSION = 'v1.24.2';
const MODULE = 'github.com/FerretDB/FerretDB';
/** What the build stamp records: a change of version or patches rebuilds the binary. */
const FERRETDB_BUILD = `${FERRETDB_VERSION}+${JSON.stringify(FERRETDB_PATCHES)}`;

export interface FerretOptions {
  host: string;
  port: number;
  log: (message: string) => void;
  /** Folder under .stack/data holding ferretdb/ (default: .stack/data itself, the shared database). */
  dataDir?: string | undefined;
  /**
   * SQLite's `synchronous` pragma (FerretDB keeps its WAL journal). `normal` fsyncs only at
   * checkpoints: a crash of FerretDB or of any process loses nothing, a power loss or kernel panic
   * may lose the last commits. Measured here it doubles single-document writes (insertOne 900 ->
   * 1,950/s, updateOne 720 -> 1,580/s, 8 clients); `full` fsyncs every commit.
   */
  synchronous: 'normal' | 'full';
  /**
   * Require a SCRAM login for every command but the handshake and ping (FerretDB's experimental
   * --test-enable-new-auth), with this first user, created in `database` when that database does not
   * exist yet. FerretDB 1.24 checks only that a client logged in: it accepts no roles and lets any
   * user read and write every database (ferretdb-auth.int.spec.ts), so logins alone isolate nothing.
   */
  auth?: { database: string; username: string; password: string } | undefined;
}

function goEnv(): NodeJS.ProcessEnv {
  // Module and build caches live under .stack/cache too, so nothing is fetched twice and a clean
  // clone never depends on what a developer's home directory happens to hold.
  return {
    ...process.env,
    GOMODCACHE: join(paths.cache, 'go', 'mod'),
    GOCACHE: join(paths.cache, 'go', 'build'),
    GOFLAGS: '-mod=mod',
    CGO_ENABLED: '0',
  };
}

/**
 * Builds the FerretDB binary from the Go module proxy. A plain `go install` builds a binary that
 * panics at start, because build/version/version.txt (written by FerretDB's own release tooling
 * and embedded with go:embed) is not part of the module; so the module is downloaded, copied
 * out of the read-only module cache, given that file and our patches (ferretdb-patches.ts), and built.
 */
export async function installFerretDb(log: (m: string) => void): Promise<string> {
  const dir = join(paths.cache, `ferretdb-${FERRETDB_VERSION}`);
  const binary = join(dir, 'ferretdb');
  const stamp = join(dir, '.installed');
  if (existsSync(binary) && stampMatches(stamp, FERRETDB_BUILD)) return binary;
  log(`building FerretDB ${FERRETDB_VERSION} with Go (first run only; takes a few minutes)`);
  mkdirSync(dir, { recursive: true });
  const env = goEnv();
  const download = JSON.parse(await exec('go', ['mod', 'download', '-json', `${MODULE}@${FERRETDB_VERSION}`], { env, cwd: dir })) as {
    Dir?: string;
    Error?: string;
  };
  if (!download.Dir) throw new Error(`go mod download ${MODULE}@${FERRETDB_VERSION}: ${download.Error ?? 'no directory'}`);
  const source = join(dir, 'src');
  rmSync(source, { recursive: true, force: true });
  cpSync(download.Dir, source, { recursive: true });
  makeWritable(source);
  writeFileSync(join(source, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);
  applyPatches(source, FERRETDB_PATCHES, log);
  await exec('go', ['build', '-trimpath', '-o', binary, './cmd/ferretdb'], { env, cwd: source });
  rmSync(source, { recursive: true, force: true });
  writeStamp(stamp, FERRETDB_BUILD);
  return binary;
}

function makeWritable(dir: string): void {
  // The module cache is read-only; the copy must accept the added file and a later rm.
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makeWritable(path);
    else chmodSync(path, 0o644);
  }
}

/** The folder holding a FerretDB's SQLite files (`dataDir` as in FerretOptions). */
export function ferretDataDir(dataDir?: string): string {
  return join(paths.data, dataDir ?? '', 'ferretdb');
}

export async function startFerretDb(binary: string, options: FerretOptions): Promise<ManagedProcess> {
  const dataDir = ferretDataDir(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const proc = new ManagedProcess({
    name: options.dataDir ? `${options.dataDir}-ferretdb` : 'ferretdb',
    role: 'infra',
    command: binary,
    args: [
      '--handler=sqlite',
      `--sqlite-url=file:${dataDir}/?_pragma=synchronous(${options.synchronous})`,
      `--state-dir=${dataDir}`,
      `--listen-addr=${options.host}:${options.port}`,
      '--debug-addr=-',
      '--telemetry=disable',
      '--log-level=warn',
      ...(options.auth
        ? [
            '--test-enable-new-auth',
            `--setup-database=${options.auth.database}`,
            `--setup-username=${options.auth.username}`,
            `--setup-password=${options.auth.password}`,
          ]
        : []),
    ],
  });
  const url = `mongodb://${options.host}:${options.port}/`;
  try {
    await waitFor(
      'FerretDB',
      () => mongoAnswers(url),
      30_000,
      () => proc.alive,
    );
  } catch (error) {
    await proc.stop(2_000);
    throw new Error(`${(error as Error).message}; see ${proc.logFile}`, { cause: error });
  }
  return proc;
}

/** True when the server answers a ping over the MongoDB wire protocol. */
export async function mongoAnswers(url: string): Promise<boolean> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 1_000, connectTimeoutMS: 1_000 });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
    return true;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => undefined);
  }
}
