import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { bool, defineEnv, oneOf, str } from '@stormhook/config';

const loadEnv = defineEnv({
  STORMHOOK_IMAGE_ENGINE: oneOf(['podman', 'docker'] as const, {
    optional: true,
    description: 'container engine; default podman when installed, else a running Docker',
  }),
  STORMHOOK_IMAGE_REGISTRY: str({
    optional: true,
    pattern: '^[A-Za-z0-9.-]+(:[0-9]+)?(/[a-z0-9._/-]+)?$',
    description: 'registry prefix of the image names, e.g. registry.example.com/team',
  }),
  STORMHOOK_IMAGE_CA_BUNDLE: str({
    optional: true,
    description: 'PEM bundle of extra CAs for the build steps that reach the npm registry (TLS-intercepting proxies); default NODE_EXTRA_CA_CERTS',
  }),
  STORMHOOK_IMAGE_PUSH: bool({ default: false, description: 'push the service images after building them' }),
  STORMHOOK_NODE_VERSION: str({ pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+$', description: 'the pinned Node version (set by scripts/bootstrap.mjs)' }),
  STORMHOOK_PNPM_VERSION: str({ pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+$', description: 'the pinned pnpm version (set by scripts/bootstrap.mjs)' }),
});

export interface ImageOptions {
  engine: 'podman' | 'docker' | undefined;
  /** Prefix of every image name: `<registry>/stormhook/<service>:<tag>`; empty for local names. */
  registry: string | undefined;
  /** Absolute path of the CA bundle, mounted as the build secret `ca`. */
  caBundle: string | undefined;
  push: boolean;
  nodeVersion: string;
  pnpmVersion: string;
}

const USAGE = 'usage: npm run images -- [--registry <host[:port][/path]>] [--ca-bundle <file.pem>] [--push] [--engine podman|docker]';

/**
 * Options of `npm run images`: STORMHOOK_IMAGE_* variables, overridden by command-line flags.
 * Validated here once, each failure naming the flag or variable.
 */
export function loadImageOptions(args: readonly string[], env: NodeJS.ProcessEnv = process.env): ImageOptions {
  const c = loadEnv(env);
  const options: ImageOptions = {
    engine: c.STORMHOOK_IMAGE_ENGINE,
    registry: c.STORMHOOK_IMAGE_REGISTRY,
    // Node's own variable for extra CAs: a host that needs one to reach the registry needs it in the build too.
    caBundle: c.STORMHOOK_IMAGE_CA_BUNDLE ?? (env['NODE_EXTRA_CA_CERTS'] || undefined),
    push: c.STORMHOOK_IMAGE_PUSH,
    nodeVersion: c.STORMHOOK_NODE_VERSION,
    pnpmVersion: c.STORMHOOK_PNPM_VERSION,
  };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value; ${USAGE}`);
      return v;
    };
    if (flag === '--registry') options.registry = loadEnv({ ...env, STORMHOOK_IMAGE_REGISTRY: value() }).STORMHOOK_IMAGE_REGISTRY;
    else if (flag === '--ca-bundle') options.caBundle = value();
    else if (flag === '--push') options.push = true;
    else if (flag === '--engine') options.engine = loadEnv({ ...env, STORMHOOK_IMAGE_ENGINE: value() }).STORMHOOK_IMAGE_ENGINE;
    else throw new Error(`unknown option ${flag}; ${USAGE}`);
  }
  if (options.caBundle !== undefined) {
    const file = resolve(options.caBundle);
    if (!existsSync(file) || !statSync(file).isFile()) throw new Error(`--ca-bundle / STORMHOOK_IMAGE_CA_BUNDLE / NODE_EXTRA_CA_CERTS: ${file} is not a file`);
    options.caBundle = file;
  }
  if (options.push && !options.registry)
    throw new Error('--push / STORMHOOK_IMAGE_PUSH needs --registry / STORMHOOK_IMAGE_REGISTRY: local names cannot be pushed');
  return options;
}
