import { parseAllDocuments } from 'yaml';

/** Just the parts of a rendered workload the access checks read: its component label and its containers' env and args. */
export interface EnvVar {
  name?: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name?: string; key?: string } };
}

export interface Container {
  env?: EnvVar[];
  args?: string[];
}

interface PodSpec {
  containers?: Container[];
}

export interface Workload {
  kind?: string;
  metadata?: { labels?: Record<string, string> };
  spec?: { template?: { spec?: PodSpec }; jobTemplate?: { spec?: { template?: { spec?: PodSpec } } } };
}

export const COMPONENT = 'app.kubernetes.io/component';

export function containersOf(workload: Workload): Container[] {
  return [...(workload.spec?.template?.spec?.containers ?? []), ...(workload.spec?.jobTemplate?.spec?.template?.spec?.containers ?? [])];
}

/** Every document of a render, parsed (non-objects dropped). */
export function workloadsOf(yaml: string): Workload[] {
  return parseAllDocuments(yaml)
    .map((doc) => doc.toJS() as Workload | null)
    .filter((w): w is Workload => w !== null && typeof w === 'object');
}

/** The script a component's Job runs (its containers' args, joined), or undefined when the render holds no such Job. */
export function jobScript(yaml: string, component: string): string | undefined {
  const job = workloadsOf(yaml).find((w) => w.kind === 'Job' && w.metadata?.labels?.[COMPONENT] === component);
  return job
    ? containersOf(job)
        .flatMap((c) => c.args ?? [])
        .join('\n')
    : undefined;
}
