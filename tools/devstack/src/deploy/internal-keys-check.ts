import { parseAllDocuments } from 'yaml';
import { callingServices, GRPC_SERVICES, INTERNAL_PUBLIC_KEYS_VARIABLE, signingKeyVariable } from '@stormhook/grpc';
import type { StepResult } from './chart-checks.js';

const COMPONENT = 'app.kubernetes.io/component';
const SIGNING_KEY_SUFFIX = '_INTERNAL_SIGNING_KEY';

/** The Secret key that holds a calling service's private key (the chart's `<service>-internal-signing-key.pem`). */
export const signingKeySecretKey = (service: string): string => `${service}-internal-signing-key.pem`;

interface EnvVar {
  name?: string;
  valueFrom?: { secretKeyRef?: { key?: string }; configMapKeyRef?: { key?: string } };
}

interface Workload {
  kind?: string;
  metadata?: { labels?: Record<string, string> };
  spec?: { template?: { spec?: { containers?: Array<{ env?: EnvVar[] }> } } };
}

/**
 * Each calling service's pods get its own private key, under its own variable, from its own Secret
 * key, and no other service's: a render that handed one service another's key would let that pod
 * sign in the other's name (the gateway's key: as any customer). Every gRPC service gets the public
 * keys, from which it takes its callers' (a missing caller's key fails its start, naming both).
 */
export function checkInternalKeys(yaml: string, variant: string): StepResult {
  const problems: string[] = [];
  const callers = new Set<string>(callingServices());
  const verifiers = new Set<string>(GRPC_SERVICES);
  let deployments = 0;
  for (const doc of parseAllDocuments(yaml)) {
    const workload = doc.toJS() as Workload | null;
    if (workload?.kind !== 'Deployment') continue;
    deployments++;
    const service = workload.metadata?.labels?.[COMPONENT] ?? '(unlabelled)';
    const env = (workload.spec?.template?.spec?.containers ?? []).flatMap((c) => c.env ?? []);
    const own = signingKeyVariable(service);
    for (const variable of env.filter((e) => e.name?.endsWith(SIGNING_KEY_SUFFIX))) {
      if (variable.name !== own) problems.push(`${service} gets ${variable.name}`);
      else if (!callers.has(service)) problems.push(`${service} calls no service but gets ${own}`);
      else if (variable.valueFrom?.secretKeyRef?.key !== signingKeySecretKey(service)) {
        problems.push(`${service} reads ${own} from Secret key ${variable.valueFrom?.secretKeyRef?.key ?? '(none)'}, not ${signingKeySecretKey(service)}`);
      }
    }
    if (callers.has(service) && !env.some((e) => e.name === own)) problems.push(`${service} lacks ${own}`);
    const publicKeys = env.find((e) => e.name === INTERNAL_PUBLIC_KEYS_VARIABLE);
    if (verifiers.has(service) && !publicKeys?.valueFrom?.configMapKeyRef)
      problems.push(`${service} lacks ${INTERNAL_PUBLIC_KEYS_VARIABLE} from the public-key ConfigMap`);
  }
  if (deployments === 0) problems.push('no Deployment rendered');
  return {
    name: `internal keys (${variant}): each calling service its own signing key and no other, every gRPC service the public keys`,
    ok: problems.length === 0,
    detail: problems.length === 0 ? `${deployments} Deployments` : problems.join('; '),
  };
}
