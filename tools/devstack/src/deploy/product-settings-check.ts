import { parseAllDocuments } from 'yaml';
import type { StepResult } from './chart-checks.js';

/**
 * What a production render must say about issue 14's settings: identity may put links to the
 * operator's own pages in its messages, and the synthetic feed never runs (it is for `npm start`
 * and the Tiltfile's manual resource only).
 */
const COMPONENT = 'app.kubernetes.io/component';
/** The feed simulator's entry point in the ingest image (services/ingest/src/sim/cli.ts). */
export const FEED_SIMULATOR_SCRIPT = 'dist/sim/cli.js';
const LINK_ORIGINS = 'STORMHOOK_ALLOWED_LINK_ORIGINS';

interface Container {
  name?: string;
  command?: string[];
  args?: string[];
  env?: Array<{ name?: string; value?: string }>;
}
interface RenderedObject {
  kind?: string;
  metadata?: { name?: string; labels?: Record<string, string> };
}

function objects(renderedYaml: string): RenderedObject[] {
  return parseAllDocuments(renderedYaml)
    .map((doc) => doc.toJS() as RenderedObject | null)
    .filter((o): o is RenderedObject => o !== null);
}

/** Every container and init container of `value`, however deep (Deployment, Job, CronJob, Pod). */
function containersIn(value: unknown): Container[] {
  if (Array.isArray(value)) return value.flatMap(containersIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    (key === 'containers' || key === 'initContainers') && Array.isArray(child) ? (child as Container[]) : containersIn(child),
  );
}

/** No object of the render runs the feed simulator, as a command, an argument or a shell line. */
export function checkNoFeedSimulator(renderedYaml: string, variant: string): StepResult {
  const found: string[] = [];
  for (const object of objects(renderedYaml)) {
    for (const container of containersIn(object)) {
      const argv = [...(container.command ?? []), ...(container.args ?? [])];
      if (argv.some((arg) => arg.includes(FEED_SIMULATOR_SCRIPT)))
        found.push(`${object.kind ?? '?'} ${object.metadata?.name ?? '?'} (${container.name ?? '?'})`);
    }
  }
  return {
    name: `no workload of the ${variant} render runs the feed simulator (${FEED_SIMULATOR_SCRIPT})`,
    ok: found.length === 0,
    detail: found.length === 0 ? 'none' : `runs it: ${found.join(', ')}`,
  };
}

/** Identity's Deployment lists at least one link origin, each a bare http(s) origin (no path). */
export function checkLinkOrigins(renderedYaml: string, variant: string): StepResult {
  const name = `identity (${variant}) has ${LINK_ORIGINS} for activation and reset links`;
  const identity = objects(renderedYaml).find((o) => o.kind === 'Deployment' && o.metadata?.labels?.[COMPONENT] === 'identity');
  if (!identity) return { name, ok: false, detail: 'no identity Deployment' };
  const value = containersIn(identity)
    .flatMap((c) => c.env ?? [])
    .find((e) => e.name === LINK_ORIGINS)?.value;
  if (!value) return { name, ok: false, detail: `${LINK_ORIGINS} is not set: every activation and reset request answers 400` };
  const origins = value.split(',').map((o) => o.trim());
  const bad = origins.filter((origin) => {
    try {
      const url = new URL(origin);
      return !['http:', 'https:'].includes(url.protocol) || url.origin !== origin;
    } catch {
      return true;
    }
  });
  return { name, ok: bad.length === 0, detail: bad.length === 0 ? origins.join(', ') : `not an http(s) origin: ${bad.join(', ')}` };
}

const DEV_FALLBACKS = 'STORMHOOK_DEV_FALLBACKS';

/**
 * No render mentions the development switch anywhere (an env entry, a ConfigMap, a shell line): with
 * it, a deployment missing its token or credential key would make one up and keep it in the database
 * beside what it protects, instead of refusing to start. The chart supplies both keys from Secrets.
 */
export function checkNoDevFallbacks(renderedYaml: string, variant: string): StepResult {
  const lines = renderedYaml
    .split('\n')
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => line.includes(DEV_FALLBACKS));
  return {
    name: `the ${variant} render never sets ${DEV_FALLBACKS}`,
    ok: lines.length === 0,
    detail: lines.length === 0 ? 'not mentioned' : `mentioned at ${lines.map(({ n, line }) => `line ${n}: ${line}`).join('; ')}`,
  };
}
