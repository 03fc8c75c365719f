import { parseAllDocuments } from 'yaml';
import { aclRules, aclRuleText, KAFKA_PRINCIPALS } from '@stormhook/kafka';
import type { StepResult } from './chart-checks.js';
import { COMPONENT, containersOf, jobScript, type Workload } from './workloads.js';

const ACL_LINE = /kafka-acls\.sh .*--allow-principal "User:([^"]+)" --operation (\w+) --(topic|group) "([^"]+)" --resource-pattern-type (\w+)/;

/** The rules the rendered ACL Job grants, in the table's text form. */
export function renderedAclRules(yaml: string): string[] | undefined {
  const script = jobScript(yaml, 'kafka-acls');
  if (script === undefined) return undefined;
  return script
    .split('\n')
    .map((line) => ACL_LINE.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(([, principal, operation, resource, name, pattern]) => `User:${principal} ${resource} ${pattern} ${name} ${operation}`);
}

/** The rendered ACL Job grants exactly the access table's rules (under the render's topic prefix), no more and no fewer. */
export function checkRenderedAcls(yaml: string, variant: string, topicPrefix?: string): StepResult {
  const name = `Kafka ACLs (${variant}): the ACL Job grants exactly the access table of packages/kafka/src/topic-access.ts`;
  const rendered = renderedAclRules(yaml);
  if (!rendered) return { name, ok: false, detail: 'no kafka-acls Job rendered' };
  const expected = aclRules(topicPrefix).map(aclRuleText);
  const have = new Set(rendered);
  const want = new Set(expected);
  const missing = expected.filter((rule) => !have.has(rule));
  const extra = rendered.filter((rule) => !want.has(rule));
  const problems = [...missing.map((r) => `missing ${r}`), ...extra.map((r) => `not in the table: ${r}`)];
  if (rendered.length !== have.size) problems.push('a rule is rendered twice');
  return { name, ok: problems.length === 0, detail: problems.length === 0 ? `${rendered.length} rules` : problems.join('; ') };
}

/**
 * Each workload logs in to Kafka as its own principal, with the password of its own Secret and of no
 * other: a pod that could read another principal's Secret could act as it on the bus.
 */
export function checkKafkaLogins(yaml: string, variant: string): StepResult {
  const problems: string[] = [];
  const principals = new Set<string>(KAFKA_PRINCIPALS);
  let workloads = 0;
  for (const doc of parseAllDocuments(yaml)) {
    const workload = doc.toJS() as Workload | null;
    if (workload?.kind !== 'Deployment' && workload?.kind !== 'CronJob') continue;
    const component = workload.metadata?.labels?.[COMPONENT] ?? '(unlabelled)';
    const env = containersOf(workload).flatMap((c) => c.env ?? []);
    const username = env.find((e) => e.name === 'KAFKA_USERNAME')?.value;
    const secret = env.find((e) => e.name === 'KAFKA_PASSWORD')?.valueFrom?.secretKeyRef?.name;
    workloads++;
    if (!username || !principals.has(username)) {
      problems.push(`${component} has KAFKA_USERNAME ${username ?? '(none)'}, not a principal of the table`);
      continue;
    }
    if (workload.kind === 'Deployment' && username !== component) problems.push(`${component} logs in as ${username}`);
    if (!secret?.endsWith(username)) problems.push(`${component} reads its Kafka password from Secret ${secret ?? '(none)'}, not its own`);
    for (const other of env.map((e) => e.valueFrom?.secretKeyRef?.name).filter((n): n is string => n !== undefined)) {
      for (const principal of principals) {
        if (principal !== username && other.endsWith(`-${principal}`) && other !== secret) problems.push(`${component} also reads Secret ${other}`);
      }
    }
  }
  if (workloads === 0) problems.push('no workload rendered');
  return {
    name: `Kafka logins (${variant}): each workload its own principal and only its own Secret`,
    ok: problems.length === 0,
    detail: problems.length === 0 ? `${workloads} workloads` : problems.join('; '),
  };
}
