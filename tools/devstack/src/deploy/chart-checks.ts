import { join } from 'node:path';
import type { TopicSpec } from '@stormhook/kafka';
import { kafkaTopics, summarizeAll, type ManifestSummary } from './manifests.js';
import { runTool, tail } from './run-tool.js';
import { KUBERNETES_VERSIONS, schemaLocation } from './schemas.js';

export const CHART_DIR = join('deploy', 'helm', 'stormhook');
export const RELEASE = 'stormhook';
export const NAMESPACE = 'stormhook';

/**
 * Kinds whose CRD schemas cannot be had from the registries this project reaches (Strimzi publishes
 * its CRDs only with its GitHub releases and Helm chart; the Prometheus Operator likewise). They are
 * skipped by name - never with -ignore-missing-schemas, which would hide a typo in any other kind.
 * The KafkaTopics are checked against the topic catalogue instead (checkRenderedTopics).
 */
export const SKIPPED_KINDS = ['KafkaTopic', 'ServiceMonitor'] as const;

export interface RenderVariant {
  name: string;
  valuesFile: string;
  set: string[];
}

export const VARIANTS: readonly RenderVariant[] = [
  { name: 'production', valuesFile: 'values-production.yaml', set: [] },
  { name: 'dev', valuesFile: 'values-dev.yaml', set: [] },
  // The optional parts production leaves off: metrics ports, ServiceMonitor, the topics Job.
  {
    name: 'production+metrics+topics-job',
    valuesFile: 'values-production.yaml',
    set: ['metrics.enabled=true', 'metrics.serviceMonitor.enabled=true', 'kafkaTopics.strimzi.enabled=false', 'kafkaTopics.job.enabled=true'],
  },
  // Real forecasts: the Open-Meteo CronJob and its NetworkPolicy, as production would run them.
  { name: 'production+open-meteo', valuesFile: 'values-production.yaml', set: ['openMeteo.enabled=true'] },
];

/** Variants that render the Open-Meteo CronJob (values-dev.yaml enables it). */
export const OPEN_METEO_VARIANTS: readonly string[] = ['production+open-meteo', 'dev'];

/** Renders that must fail, and the chart's own message each must fail with. */
export interface NegativeCase {
  name: string;
  valuesFile: string;
  set: string[];
  message: string;
}

export const NEGATIVE_CASES: readonly NegativeCase[] = [
  {
    name: 'missing per-service database Secrets',
    valuesFile: 'values-production.yaml',
    set: ['secrets.database.secretPrefix='],
    message: 'secrets.database.secretPrefix is required',
  },
  {
    name: 'missing database user administrator Secret',
    valuesFile: 'values-production.yaml',
    set: ['secrets.database.adminSecret='],
    message: 'secrets.database.adminSecret is required while mongoUsers.job is enabled',
  },
  { name: 'missing Kafka brokers', valuesFile: 'values-production.yaml', set: ['kafka.brokers=null'], message: 'kafka.brokers is required' },
  {
    name: 'missing JWT Secret',
    valuesFile: 'values-production.yaml',
    set: ['secrets.jwt.existingSecret='],
    message: 'secrets.jwt.existingSecret is required',
  },
  {
    name: 'missing internal signing key Secret',
    valuesFile: 'values-production.yaml',
    set: ['secrets.internalSigning.existingSecret='],
    message: 'secrets.internalSigning.existingSecret is required',
  },
  {
    name: 'missing notifier message key Secret',
    valuesFile: 'values-production.yaml',
    set: ['secrets.messageKey.existingSecret='],
    message: 'secrets.messageKey.existingSecret is required',
  },
  {
    name: 'missing geo boundary source',
    valuesFile: 'values-production.yaml',
    set: ['services.geo.env.STORMHOOK_GEO_SOURCE='],
    message: 'services.geo.env.STORMHOOK_GEO_SOURCE is required while geo is enabled',
  },
  {
    name: 'geo boundary source not a URL',
    valuesFile: 'values-production.yaml',
    set: ['services.geo.env.STORMHOOK_GEO_SOURCE=/data/geo'],
    message: 'services.geo.env.STORMHOOK_GEO_SOURCE "/data/geo" must be an http(s) URL',
  },
  {
    name: 'the former webhook exception list',
    valuesFile: 'values-production.yaml',
    set: ['networkPolicy.webhookEgress.except={10.0.0.0/8}'],
    message: 'networkPolicy.webhookEgress.except/exceptIPv6 are gone',
  },
  {
    name: 'missing internal public key ConfigMap',
    valuesFile: 'values-production.yaml',
    set: ['internalPublicKeys.existingConfigMap='],
    message: 'internalPublicKeys.existingConfigMap is required',
  },
  {
    name: 'more ingest replicas than feed partitions',
    valuesFile: 'values-production.yaml',
    set: ['services.ingest.autoscaling.maxReplicas=4'],
    message: 'services.ingest: 4 replicas exceed the 3 partitions of its widest consumed topic',
  },
  {
    name: 'a second writer of the weather history',
    valuesFile: 'values-production.yaml',
    set: ['services.query.replicas=2'],
    message: 'services.query: its store has a single writer',
  },
];

export interface StepResult {
  name: string;
  ok: boolean;
  detail: string;
}

// A helm built with `go install` lacks the release ldflags and assumes Kubernetes 1.20, below the
// chart's kubeVersion floor: always say which version to render for.
const NEWEST_KUBERNETES = KUBERNETES_VERSIONS[KUBERNETES_VERSIONS.length - 1] ?? '1.37.0';

export function helmTemplateArgs(root: string, valuesFile: string, set: readonly string[], kubeVersion: string = NEWEST_KUBERNETES): string[] {
  const chart = join(root, CHART_DIR);
  const args = ['template', RELEASE, chart, '--namespace', NAMESPACE, '--kube-version', kubeVersion, '-f', join(chart, valuesFile)];
  for (const s of set) args.push('--set', s);
  return args;
}

export async function helmLint(helm: string, root: string): Promise<StepResult[]> {
  const chart = join(root, CHART_DIR);
  const results: StepResult[] = [];
  for (const valuesFile of ['values-production.yaml', 'values-dev.yaml']) {
    const run = await runTool(helm, ['lint', '--strict', '--kube-version', NEWEST_KUBERNETES, chart, '-f', join(chart, valuesFile)]);
    const ok = run.code === 0;
    results.push({ name: `helm lint --strict -f ${valuesFile}`, ok, detail: ok ? (/\d+ chart\(s\) linted.*$/m.exec(run.stdout)?.[0] ?? '') : tail(run, 1500) });
  }
  return results;
}

/** `helm template | kubeconform -strict -summary` for every variant and Kubernetes version. */
export async function templateAndValidate(
  helm: string,
  kubeconform: string,
  root: string,
  schemas: string,
): Promise<{ results: StepResult[]; renders: Map<string, ManifestSummary[]>; texts: Map<string, string> }> {
  const results: StepResult[] = [];
  const renders = new Map<string, ManifestSummary[]>();
  /** The rendered YAML of each variant (for the newest Kubernetes version rendered). */
  const texts = new Map<string, string>();
  for (const variant of VARIANTS) {
    for (const version of KUBERNETES_VERSIONS) {
      const name = `helm template ${variant.name} (Kubernetes ${version}) | kubeconform -strict`;
      const rendered = await runTool(helm, helmTemplateArgs(root, variant.valuesFile, variant.set, version));
      if (rendered.code !== 0) {
        results.push({ name, ok: false, detail: tail(rendered) });
        continue;
      }
      renders.set(variant.name, summarizeAll(rendered.stdout));
      texts.set(variant.name, rendered.stdout);
      const validated = await runTool(
        kubeconform,
        ['-strict', '-summary', '-kubernetes-version', version, '-schema-location', schemaLocation(schemas), '-skip', SKIPPED_KINDS.join(','), '-'],
        { input: rendered.stdout },
      );
      const summary = /Summary:.*$/m.exec(validated.stdout)?.[0] ?? '';
      const valid = Number(/Valid: (\d+)/.exec(summary)?.[1] ?? 0);
      // A render that validated nothing proves nothing (e.g. every kind skipped or no schema found).
      const ok = validated.code === 0 && valid > 0;
      results.push({ name, ok, detail: ok ? summary : tail(validated) });
    }
  }
  return { results, renders, texts };
}

export async function negativeCases(helm: string, root: string): Promise<StepResult[]> {
  const results: StepResult[] = [];
  for (const c of NEGATIVE_CASES) {
    const run = await runTool(helm, helmTemplateArgs(root, c.valuesFile, c.set));
    const output = `${run.stdout}${run.stderr}`;
    const ok = run.code !== 0 && output.includes(c.message);
    const detail = ok
      ? `fails as it should: ${(/Error: .*$/m.exec(output)?.[0] ?? c.message).slice(0, 300)}`
      : run.code === 0
        ? 'rendered although it must fail'
        : `failed without the chart's message "${c.message}":\n${tail(run, 800)}`;
    results.push({ name: `negative: ${c.name} (--set ${c.set.join(' ')})`, ok, detail });
  }
  return results;
}

/** The rendered KafkaTopics are exactly the catalogue: names and partition counts. */
export function checkRenderedTopics(manifests: readonly ManifestSummary[], catalogue: readonly TopicSpec[]): StepResult {
  const rendered = new Map(kafkaTopics(manifests).map((t) => [t.topicName, t.partitions]));
  const problems: string[] = [];
  for (const topic of catalogue) {
    const partitions = rendered.get(topic.name);
    if (partitions === undefined) problems.push(`${topic.name} missing`);
    else if (partitions !== topic.partitions) problems.push(`${topic.name} has ${partitions} partitions, the catalogue ${topic.partitions}`);
    rendered.delete(topic.name);
  }
  for (const extra of rendered.keys()) problems.push(`${extra} is not in the catalogue`);
  return {
    name: 'KafkaTopics match the topic catalogue',
    ok: problems.length === 0,
    detail: problems.length === 0 ? `${catalogue.length} topics` : problems.join('; '),
  };
}
