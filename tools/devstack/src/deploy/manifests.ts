/**
 * Just enough reading of rendered Kubernetes YAML for the checks: kinds, names and images of each
 * document. Helm's output and our own manifests are regular (block style, two-space indent), and
 * no YAML library is a dependency of the dev stack; kubeconform does the real validation.
 */
export interface ManifestSummary {
  kind: string;
  name: string;
  images: string[];
  /** The document's text, for checks that look at one object. */
  text: string;
}

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Pod', 'ReplicaSet']);

export function splitDocuments(yaml: string): string[] {
  return yaml
    .split(/^---[^\n]*$/m)
    .map((doc) => doc.trim())
    .filter((doc) => doc.split('\n').some((line) => line.trim() !== '' && !line.trim().startsWith('#')));
}

function unquote(value: string): string {
  const trimmed = value.trim();
  return /^(["']).*\1$/.test(trimmed) ? trimmed.slice(1, -1) : trimmed;
}

export function summarize(doc: string): ManifestSummary | undefined {
  const kind = /^kind:\s*(\S+)\s*$/m.exec(doc)?.[1];
  // The first `name:` indented by two spaces under the top-level `metadata:`.
  const name = /^metadata:\s*\n(?:(?: {2}.*|\s*)\n)*? {2}name:\s*(.+)$/m.exec(doc)?.[1];
  if (!kind || !name) return undefined;
  const images = [...doc.matchAll(/^\s*(?:-\s+)?image:\s*(.+)$/gm)].map((m) => unquote(m[1] ?? ''));
  return { kind, name: unquote(name), images, text: doc };
}

export function summarizeAll(yaml: string): ManifestSummary[] {
  return splitDocuments(yaml)
    .map(summarize)
    .filter((s): s is ManifestSummary => s !== undefined);
}

export function workloadNames(manifests: readonly ManifestSummary[]): string[] {
  return manifests.filter((m) => WORKLOAD_KINDS.has(m.kind)).map((m) => m.name);
}

/** Image references without tag or digest: what Tilt matches docker_build refs against. */
export function imageRepositories(manifests: readonly ManifestSummary[]): string[] {
  const repositories = manifests.flatMap((m) => m.images).map((image) => image.replace(/@.*$/, '').replace(/:[^/:]+$/, ''));
  return [...new Set(repositories)].sort();
}

/** The KafkaTopics of a render: the topic name and partition count each one declares. */
export function kafkaTopics(manifests: readonly ManifestSummary[]): Array<{ topicName: string; partitions: number }> {
  return manifests
    .filter((m) => m.kind === 'KafkaTopic')
    .map((m) => ({
      topicName: unquote(/^ {2}topicName:\s*(.+)$/m.exec(m.text)?.[1] ?? ''),
      partitions: Number(/^ {2}partitions:\s*(\d+)\s*$/m.exec(m.text)?.[1] ?? Number.NaN),
    }));
}
