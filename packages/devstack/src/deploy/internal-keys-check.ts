import { parseAllDocuments } from 'yaml';
import { PRINCIPAL_PUBLIC_KEY_VARIABLE, PRINCIPAL_SIGNING_KEY_VARIABLE } from '@stormhook/grpc';
import type { StepResult } from './chart-checks.js';

const COMPONENT = 'app.kubernetes.io/component';

interface Workload {
  kind?: string;
  metadata?: { labels?: Record<string, string> };
  spec?: { template?: { spec?: { containers?: Array<{ env?: Array<{ name?: string }> }> } } };
}

/**
 * The private key that signs internal tokens carrying a customer reaches the gateway's pods and no
 * other; every other service gets the public key instead. A render that handed the private key to a
 * service would quietly give that pod the power to act as any customer.
 */
export function checkPrincipalKeys(yaml: string, variant: string): StepResult {
  const problems: string[] = [];
  let deployments = 0;
  for (const doc of parseAllDocuments(yaml)) {
    const workload = doc.toJS() as Workload | null;
    if (workload?.kind !== 'Deployment') continue;
    deployments++;
    const service = workload.metadata?.labels?.[COMPONENT] ?? '(unlabelled)';
    const names = new Set((workload.spec?.template?.spec?.containers ?? []).flatMap((c) => (c.env ?? []).map((e) => e.name)));
    const gateway = service === 'gateway';
    if (names.has(PRINCIPAL_SIGNING_KEY_VARIABLE) !== gateway) problems.push(`${service} ${gateway ? 'lacks' : 'gets'} ${PRINCIPAL_SIGNING_KEY_VARIABLE}`);
    if (names.has(PRINCIPAL_PUBLIC_KEY_VARIABLE) === gateway) problems.push(`${service} ${gateway ? 'gets' : 'lacks'} ${PRINCIPAL_PUBLIC_KEY_VARIABLE}`);
  }
  if (deployments === 0) problems.push('no Deployment rendered');
  return {
    name: `internal principal keys (${variant}): the signing key in the gateway only, the public key in every other service`,
    ok: problems.length === 0,
    detail: problems.length === 0 ? `${deployments} Deployments` : problems.join('; '),
  };
}
