import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTool } from '../deploy/run-tool.js';
import { repoRoot } from '../paths.js';
import { allServices, type ServiceName } from '../services.js';
import { ensureBaseImages, imageExists, seconds, type BaseImages } from './base-images.js';
import { ensureEngine, type Engine } from './engine.js';
import { imagesDir, imagesLogDir } from './image-paths.js';
import type { ImageOptions } from './options.js';

type Log = (message: string) => void;

export interface BuiltImage {
  service: ServiceName;
  image: string;
  sizeBytes: number;
  /** Undefined when the image of this commit was already there. */
  buildSeconds: number | undefined;
}

/** `<registry>/stormhook/<service>:<tag>`, the name the chart's global.image.registry builds too. */
export function imageName(service: ServiceName, tag: string, registry?: string): string {
  return `${registry ? `${registry.replace(/\/+$/, '')}/` : ''}stormhook/${service}:${tag}`;
}

/** The commit the images are built from; `-dirty` when tracked files differ from it. */
export async function commitTag(): Promise<string> {
  const head = await runTool('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: repoRoot });
  if (head.code !== 0) throw new Error('cannot read the commit (git rev-parse HEAD): the images are tagged with it');
  const dirty = (await runTool('git', ['diff', '--quiet', 'HEAD', '--'], { cwd: repoRoot })).code !== 0;
  return `${head.stdout.trim()}${dirty ? '-dirty' : ''}`;
}

/**
 * `npm run images`: the engine (installed when missing, see engine.ts), the base images (cached),
 * then the seven service images one after another (never two builds at once: they are CPU-heavy),
 * each tagged with the commit; prints each image's size and build time; pushes only when asked.
 */
export async function buildImages(options: ImageOptions, log: Log): Promise<{ engine: Engine; images: BuiltImage[]; tag: string }> {
  const engine = await ensureEngine(options.engine, log);
  const base = await ensureBaseImages(engine, options.nodeVersion, log);
  const tag = await commitTag();
  if (options.caBundle) log(`CA bundle for the build steps (mounted, never stored in an image): ${options.caBundle}`);
  const images: BuiltImage[] = [];
  for (const service of allServices) images.push(await buildService(engine, base, service, tag, options, log));
  log('image                                              size      build');
  for (const i of images) {
    const took = i.buildSeconds === undefined ? 'reused' : `${i.buildSeconds.toFixed(1).padStart(6)} s`;
    log(`${i.image.padEnd(50)} ${formatMb(i.sizeBytes).padStart(7)}  ${took}`);
  }
  // Every build leaves untagged intermediate images (the build stage is ~0.6 GB per source change);
  // those of the last day stay as the layer cache, older ones go, so a CI machine does not fill up.
  const pruned = await engine.run(['image', 'prune', '--force', '--filter', 'until=24h']);
  if (pruned.code !== 0) log(`could not prune old intermediate images: ${pruned.stderr.trim().slice(0, 300)}`);
  if (options.push) {
    for (const i of images) {
      await engine.must(['push', i.image], { timeoutMs: 30 * 60_000 });
      log(`pushed ${i.image}`);
    }
  }
  return { engine, images, tag };
}

export function formatMb(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(0)} MB`;
}

async function buildService(engine: Engine, base: BaseImages, service: ServiceName, tag: string, options: ImageOptions, log: Log): Promise<BuiltImage> {
  const image = imageName(service, tag, options.registry);
  const started = Date.now();
  // A clean commit's image is that commit's content (the lockfile pins every dependency): a second
  // command on the same commit (CI's smoke test, then its kube play check) reuses it. A dirty tree
  // is rebuilt every time, through the layer cache.
  if (!tag.endsWith('-dirty') && (await imageExists(engine, image))) {
    const sizeBytes = await imageSize(engine, image);
    log(`present: ${image} (${formatMb(sizeBytes)}), built earlier from this commit`);
    return { service, image, sizeBytes, buildSeconds: undefined };
  }
  log(`building ${image}`);
  const args = [
    'build',
    // podman writes OCI images by default, which drop HEALTHCHECK; the Docker format keeps it.
    ...(engine.name === 'podman' ? ['--format', 'docker'] : []),
    '-f',
    join(repoRoot, 'Dockerfile'),
    '--build-arg',
    `SERVICE=${service}`,
    '--build-arg',
    `NODE_IMAGE=${base.build}`,
    '--build-arg',
    `RUNTIME_IMAGE=${base.runtime}`,
    '--build-arg',
    `PNPM_VERSION=${options.pnpmVersion}`,
    // Always given (an empty file when no bundle is set): buildah fails on a secret mount it was not handed.
    '--secret',
    `id=ca,src=${caBundleFile(options)}`,
    '--label',
    `org.opencontainers.image.revision=${tag}`,
    '-t',
    image,
    repoRoot,
  ];
  const run = await engine.run(args, { timeoutMs: 30 * 60_000 });
  mkdirSync(imagesLogDir, { recursive: true });
  const logFile = join(imagesLogDir, `${service}.log`);
  writeFileSync(logFile, `${engine.name} ${args.join(' ')}\n${run.stdout}${run.stderr}`);
  if (run.code !== 0) {
    const lines = `${run.stdout}${run.stderr}`.trim().split('\n');
    throw new Error(`building ${image} failed (exit ${run.code}); full log ${logFile}:\n${lines.slice(-40).join('\n')}`);
  }
  const sizeBytes = await imageSize(engine, image);
  const built: BuiltImage = { service, image, sizeBytes, buildSeconds: (Date.now() - started) / 1000 };
  log(`built ${image}: ${formatMb(sizeBytes)} in ${seconds(started)} s`);
  return built;
}

async function imageSize(engine: Engine, image: string): Promise<number> {
  return Number((await engine.must(['image', 'inspect', '--format', '{{.Size}}', image])).trim());
}

function caBundleFile(options: ImageOptions): string {
  if (options.caBundle) return options.caBundle;
  mkdirSync(imagesDir, { recursive: true });
  const empty = join(imagesDir, 'no-ca-bundle.pem');
  writeFileSync(empty, '');
  return empty;
}
