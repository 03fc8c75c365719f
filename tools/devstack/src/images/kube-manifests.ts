import { splitDocuments, summarize } from '../deploy/manifests.js';

/**
 * Rewrites the chart's rendered Deployments for `podman kube play` on one host (text edits on
 * Helm's regular block-style output; no YAML library is a dependency of the dev stack):
 * - only the Deployments are kept: kube play ignores Services, NetworkPolicies, HPAs and PDBs,
 *   and the topics Job is replaced by the private broker's pre-created topics;
 * - `hostNetwork: true`, so the pods reach the private Kafka and FerretDB on 127.0.0.1 and each
 *   other on the ports the render was given (bound to 127.0.0.1 by the env overrides);
 * - `ports` removed: kube play would publish every containerPort on 0.0.0.0;
 * - probes removed: they name those ports, and kube play does not run them as the kubelet does
 *   (the check asks the gateway and runs the health check script itself instead);
 * - `$(K8S_POD_NAME)` written out, as the kubelet would (podman leaves it as text).
 */
export function kubePlayDeployments(rendered: string): { yaml: string; deployments: string[] } {
  const deployments: string[] = [];
  const docs: string[] = [];
  for (const doc of splitDocuments(rendered)) {
    const summary = summarize(doc);
    if (summary?.kind !== 'Deployment') continue;
    deployments.push(summary.name);
    let text = removeBlock(doc, 'ports');
    for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) text = removeBlock(text, probe);
    // The pod spec's first key (6 spaces under `template:` → `spec:`).
    text = text.replace(/^( {6})serviceAccountName:/m, '$1hostNetwork: true\n$1serviceAccountName:');
    // podman 4 does not expand dependent variables ($(VAR) in an env value) as the kubelet does;
    // the only one the chart uses is the pod's name, which kube play makes <deployment>-pod-0.
    text = text.replaceAll('$(K8S_POD_NAME)', `${summary.name}-pod-0`);
    if (!/^ {6}hostNetwork: true$/m.test(text)) throw new Error(`cannot place hostNetwork in Deployment ${summary.name}: the chart's pod spec changed shape`);
    docs.push(text);
  }
  return { yaml: docs.map((d) => `---\n${d}\n`).join(''), deployments };
}

/** Removes every `<indent>key:` line with the lines indented deeper below it (its block). */
export function removeBlock(doc: string, key: string): string {
  const lines = doc.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const match = new RegExp(`^( *)${key}:(\\s|$)`).exec(line);
    if (!match) {
      out.push(line);
      continue;
    }
    const indent = match[1]?.length ?? 0;
    while (i + 1 < lines.length) {
      const next = lines[i + 1] ?? '';
      const nextIndent = next.length - next.trimStart().length;
      // Block members are indented deeper; a list under the key may sit at the same indent with "- ".
      if (next.trim() === '' || nextIndent > indent || (nextIndent === indent && next.trimStart().startsWith('- '))) i++;
      else break;
    }
  }
  return out.join('\n');
}

/**
 * A Secret's data as podman 4's secret store must hold it for kube play's secretKeyRef: one JSON
 * object of key -> base64 value (a Kubernetes Secret document is refused as "not valid JSON").
 */
export function podmanSecretData(data: Record<string, string>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])));
}

/** A ConfigMap for `podman kube play --configmap` (JSON is YAML: no quoting rules to get wrong for PEM blocks). */
export function kubeConfigMap(name: string, data: Record<string, string>): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
}
