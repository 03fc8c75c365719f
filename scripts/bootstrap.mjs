#!/usr/bin/env node
// The one entry point behind `npm start` and `npm test`. It must run on any Node >= 18 with
// nothing installed, so it is plain JavaScript with no dependencies. It installs the pinned Node
// runtime and pnpm into .tools/ when the machine lacks them, installs the workspace, compiles it,
// and hands over to the dev-stack CLI (tools/devstack) running on the pinned runtime.
import { spawnSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, rmSync, renameSync } from 'node:fs';
import { dirname, join, resolve, delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';

// Pinned versions: change them here (and in package.json's packageManager) only.
const NODE_VERSION = '24.21.0';
const NODE_MIN_MAJOR = 24;
const PNPM_VERSION = '10.34.9';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tools = join(root, '.tools');
const commands = new Set([
  'start',
  'test',
  'build',
  'proto:gen',
  'proto:check',
  'lint',
  'format',
  'deploy:check',
  'infra',
  'bench',
  'feed:sim',
  'faults',
  'images',
  'images:smoke',
  'images:kube',
]);

function log(message) {
  process.stderr.write(`[bootstrap] ${message}\n`);
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
  }
}

function ensureNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= NODE_MIN_MAJOR) return process.execPath;
  const dir = join(tools, `node-v${NODE_VERSION}`);
  const bin = join(dir, 'bin', 'node');
  if (existsSync(bin)) return bin;
  // The npm registry publishes the official Node binaries as node-<platform>-<arch> packages.
  const pkg = `node-${process.platform}-${process.arch}@${NODE_VERSION}`;
  log(`Node ${process.versions.node} is older than ${NODE_MIN_MAJOR}; installing ${pkg} into .tools/`);
  const cache = join(tools, 'cache');
  mkdirSync(cache, { recursive: true });
  run('npm', ['pack', pkg, '--pack-destination', cache, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = join(cache, `node-${process.platform}-${process.arch}-${NODE_VERSION}.tgz`);
  const staging = `${dir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  run('tar', ['-xzf', tarball, '-C', staging, '--strip-components=1']);
  renameSync(staging, dir);
  rmSync(tarball, { force: true });
  return bin;
}

function ensurePnpm() {
  const dir = join(tools, `pnpm-${PNPM_VERSION}`);
  const cli = join(dir, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
  if (existsSync(cli)) return cli;
  log(`installing pnpm ${PNPM_VERSION} into .tools/`);
  mkdirSync(dir, { recursive: true });
  run('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--silent', `pnpm@${PNPM_VERSION}`]);
  return cli;
}

function fileHash(...files) {
  const hash = createHash('sha256');
  for (const file of files) hash.update(existsSync(file) ? readFileSync(file) : '');
  return hash.digest('hex');
}

function main() {
  const command = process.argv[2] ?? 'start';
  if (!commands.has(command)) {
    log(`unknown command '${command}'; expected one of ${[...commands].join(', ')}`);
    process.exit(2);
  }
  const node = ensureNode();
  const pnpm = ensurePnpm();
  const env = {
    ...process.env,
    PATH: [dirname(node), process.env.PATH ?? ''].join(delimiter),
    // pnpm must not try to fetch another pnpm through corepack.
    COREPACK_ENABLE_STRICT: '0',
    npm_config_update_notifier: 'false',
    // The image builds put this Node and pnpm into the images (tools/devstack/src/images).
    STORMHOOK_NODE_VERSION: NODE_VERSION,
    STORMHOOK_PNPM_VERSION: PNPM_VERSION,
  };
  const pnpmRun = (args) => run(node, [pnpm, ...args], { env });

  // Install only when the lockfile or a manifest changed since the last install.
  const stamp = join(root, 'node_modules', '.stormhook-install');
  const wanted = fileHash(join(root, 'pnpm-lock.yaml'), join(root, 'pnpm-workspace.yaml'));
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== wanted) {
    log('installing workspace dependencies');
    pnpmRun(['install', '--frozen-lockfile', '--reporter=append-only']);
    writeFileSync(stamp, wanted);
  }
  if (command === 'proto:gen') {
    // Generation comes before compilation: the compiler reads the generated code.
    run(node, [join(root, 'packages', 'proto', 'codegen', 'generate.mjs')], { env });
    return;
  }
  if (command === 'format') {
    // Formatting needs no compiled code, and must work on a tree that does not compile yet.
    // `npm test` and `npm run lint` check the same (prettier.config.mjs, .prettierignore).
    pnpmRun(['exec', 'prettier', '--write', '--log-level', 'warn', '.']);
    log('sources formatted');
    return;
  }
  log('compiling the workspace');
  pnpmRun(['exec', 'tsc', '--build']);
  // The console's browser bundle (web/console/build.mjs, esbuild): the gateway serves it at /console.
  run(node, [join(root, 'web', 'console', 'build.mjs')], { env });
  if (command === 'build') return;

  const cli = join(root, 'tools', 'devstack', 'dist', 'cli.js');
  // kafkajs 2.2.4 trips Node 24's TimeoutNegativeWarning (tulios/kafkajs#1751): harmless noise.
  const flags = ['--enable-source-maps', '--disable-warning=TimeoutNegativeWarning'];
  const child = spawn(node, [...flags, cli, command, ...process.argv.slice(3)], { stdio: 'inherit', cwd: root, env });
  // The terminal's Ctrl-C reaches the whole foreground group; the CLI does the orderly shutdown.
  // package.json runs us with `exec`, so npm's own forwarding reaches us directly: a `sh -c` between
  // npm and us died at once on SIGTERM, npm followed half a second later, and whoever waited for npm
  // took the stack for stopped while it was still stopping.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 0 : 1)));
}

try {
  main();
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
