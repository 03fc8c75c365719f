import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allTopics } from '@stormhook/kafka';
import { repoRoot } from '../paths.js';
import { checkRenderedTopics, helmLint, helmTemplateArgs, negativeCases, OPEN_METEO_VARIANTS, templateAndValidate, type StepResult } from './chart-checks.js';
import { lintDockerfileAt } from './dockerfile-lint.js';
import { imageRepositories, summarizeAll, workloadNames } from './manifests.js';
import { runTool, tail } from './run-tool.js';
import { ensureSchemas } from './schemas.js';
import { checkTiltfile } from './tiltfile-check.js';
import { generatedFileStep } from './generated-file.js';
import { GENERATED_FILES } from './generated-files.js';
import { ensureGoTool, HELM, KUBECONFORM, STARLARK } from './tools.js';
import { checkGrpcEdges, checkWebhookEgress, codeGrpcEdges, grpcPorts } from './network-policy-check.js';
import { checkGrpcAddresses } from './grpc-address-check.js';
import { checkOpenMeteoJob, checkOpenMeteoPolicy } from './open-meteo-check.js';
import { checkLinkOrigins, checkNoDevFallbacks, checkNoFeedSimulator } from './product-settings-check.js';
import { checkInternalKeys } from './internal-keys-check.js';
import { checkKafkaLogins, checkRenderedAcls } from './kafka-access-check.js';
import { checkMongoLogins, checkRenderedMongoUsers } from './mongo-access-check.js';
import { checkKafkaUsage } from './kafka-usage.js';
import { checkMongoUsage } from './mongo-usage.js';

const DEV_MANIFESTS = ['deploy/dev/kafka.yaml', 'deploy/dev/mongodb.yaml', 'deploy/dev/geo-data.yaml', 'deploy/dev/feed-simulator.yaml'];

/** Bus access: every render's workloads log in as themselves; the renders with the ACL Job grant exactly the table. */
function kafkaAccessSteps(rendered: ReadonlyMap<string, string>): StepResult[] {
  const steps = [...rendered].map(([variant, yaml]) => checkKafkaLogins(yaml, variant));
  for (const variant of ['production', 'dev']) steps.push(checkRenderedAcls(rendered.get(variant) ?? '', variant));
  return steps;
}

/** Database access: every render's services connect as themselves; the renders with the users Job create exactly the table. */
function mongoAccessSteps(rendered: ReadonlyMap<string, string>): StepResult[] {
  const steps = [...rendered].map(([variant, yaml]) => checkMongoLogins(yaml, variant));
  for (const variant of ['production', 'dev']) steps.push(checkRenderedMongoUsers(rendered.get(variant) ?? '', variant));
  return steps;
}

/** Every render's NetworkPolicies allow exactly the gRPC edges the code dials; production's webhook egress is closed to non-public ranges. */
function networkPolicySteps(root: string, rendered: ReadonlyMap<string, string>): StepResult[] {
  const codeEdges = codeGrpcEdges(root);
  const steps = [...rendered].map(([variant, yaml]) => checkGrpcEdges(yaml, grpcPorts(yaml), codeEdges, variant));
  const production = rendered.get('production');
  if (production) steps.push(checkWebhookEgress(production));
  return steps;
}

/** Each render tells every service exactly its callees' addresses (the edge table's, as the NetworkPolicies allow). */
function grpcAddressSteps(rendered: ReadonlyMap<string, string>): StepResult[] {
  return [...rendered].map(([variant, yaml]) => checkGrpcAddresses(yaml, variant));
}

/**
 * Issue 14's settings: the Open-Meteo job runs the adapter, isolated, wherever it is rendered; no
 * chart render runs the feed simulator or lets a service make up its keys; production lets identity link to the operator's pages.
 * A variant that failed to render counts as failed here too, so a check never passes by absence.
 */
function productSettingsSteps(root: string, rendered: ReadonlyMap<string, string>): StepResult[] {
  const steps: StepResult[] = [];
  for (const variant of OPEN_METEO_VARIANTS) {
    const yaml = rendered.get(variant) ?? '';
    steps.push(checkOpenMeteoJob(yaml, variant, root), checkOpenMeteoPolicy(yaml, variant));
  }
  for (const [variant, yaml] of rendered) steps.push(checkNoFeedSimulator(yaml, variant), checkNoDevFallbacks(yaml, variant));
  steps.push(checkLinkOrigins(rendered.get('production') ?? '', 'production'));
  return steps;
}

/** With the ingress on (production) the gateway trusts it to name the client; without (dev), nobody. */
function trustProxyStep(rendered: ReadonlyMap<string, string>): StepResult {
  const production = rendered.get('production') ?? '';
  const dev = rendered.get('dev') ?? '';
  const problems = [
    ...(/name: HTTP_TRUST_PROXY\n\s+value: "[^"]+"/.test(production) ? [] : ['production (ingress enabled) does not set HTTP_TRUST_PROXY']),
    ...(dev.includes('HTTP_TRUST_PROXY') ? ['dev (no ingress) sets HTTP_TRUST_PROXY'] : []),
  ];
  return { name: 'the gateway trusts X-Forwarded-For exactly when the ingress is enabled', ok: problems.length === 0, detail: problems.join('; ') };
}

function dockerfileSteps(root: string): StepResult[] {
  const files = [
    { dockerfile: 'Dockerfile', ignore: '.dockerignore', requireHealthcheck: true },
    { dockerfile: 'deploy/dev/Dockerfile', ignore: 'deploy/dev/Dockerfile.dockerignore', requireHealthcheck: false },
  ];
  return files.map(({ dockerfile, ignore, requireHealthcheck }) => {
    const problems = lintDockerfileAt(root, dockerfile, ignore, { requireHealthcheck });
    return { name: `lint ${dockerfile}`, ok: problems.length === 0, detail: problems.join('; ') || 'pinned bases, non-root, exec entrypoint, sources present' };
  });
}

async function tiltfileStep(starlark: string, helm: string, root: string): Promise<StepResult> {
  // The Tiltfile deploys the chart with values-dev.yaml and tests off, plus deploy/dev's manifests.
  const rendered = await runTool(helm, helmTemplateArgs(root, 'values-dev.yaml', ['tests.enabled=false']));
  if (rendered.code !== 0) return { name: 'Tiltfile', ok: false, detail: `cannot render the chart for it:\n${tail(rendered)}` };
  const yaml = [rendered.stdout, ...DEV_MANIFESTS.map((f) => readFileSync(join(root, f), 'utf8'))].join('\n---\n');
  const manifests = summarizeAll(yaml);
  const result = await checkTiltfile(starlark, join(root, 'Tiltfile'), root, {
    workloads: workloadNames(manifests),
    images: imageRepositories(manifests),
  });
  return { name: 'Tiltfile parses, resolves and runs against stub builtins', ok: result.ok, detail: result.detail };
}

/**
 * The deployment checks of CI: builds or reuses helm, kubeconform and starlark, fetches the
 * Kubernetes schemas once, then lints and validates the chart, tests that missing required values
 * fail with the chart's own messages, parses the Tiltfile, and checks the generated topic file.
 * Returns the number of failed checks (0 = all passed). A tool that cannot be had throws.
 */
export async function runDeployChecks(log: (message: string) => void, root = repoRoot): Promise<number> {
  const started = Date.now();
  const [helm, kubeconform, starlark] = [await ensureGoTool(HELM, log), await ensureGoTool(KUBECONFORM, log), await ensureGoTool(STARLARK, log)];
  const schemas = await ensureSchemas(log);
  const toolsReady = Date.now();

  const steps: StepResult[] = [
    ...GENERATED_FILES.map((file) => generatedFileStep(file, root)),
    checkKafkaUsage(root),
    checkMongoUsage(root),
    ...dockerfileSteps(root),
  ];
  steps.push(...(await helmLint(helm, root)));
  const { results, renders, texts } = await templateAndValidate(helm, kubeconform, root, schemas);
  steps.push(...results);
  steps.push(...networkPolicySteps(root, texts), ...grpcAddressSteps(texts), trustProxyStep(texts), ...productSettingsSteps(root, texts));
  steps.push(...[...texts].map(([variant, yaml]) => checkInternalKeys(yaml, variant)));
  steps.push(...kafkaAccessSteps(texts), ...mongoAccessSteps(texts));
  const production = renders.get('production');
  if (production) steps.push(checkRenderedTopics(production, allTopics()));
  steps.push(...(await negativeCases(helm, root)));
  steps.push(await tiltfileStep(starlark, helm, root));

  for (const step of steps) log(`${step.ok ? 'ok  ' : 'FAIL'} ${step.name}${step.detail ? `: ${step.detail}` : ''}`);
  const failed = steps.filter((s) => !s.ok).length;
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  log(
    `deploy checks: ${steps.length - failed} passed, ${failed} failed (tools ${seconds(toolsReady - started)} s, checks ${seconds(Date.now() - toolsReady)} s)`,
  );
  return failed;
}
