import { isDatabaseUser, mongoUsers, mongoUserText } from '@stormhook/mongo';
import type { StepResult } from './chart-checks.js';
import { COMPONENT, containersOf, jobScript, workloadsOf, type EnvVar } from './workloads.js';

const USERS_JOB = 'mongo-users';
const ENSURE_LINE = /^\s*ensureUser\(("[^"]*"), ("[^"]*"), (\[.*\]), ("[^"]*")\);\s*$/;

interface RenderedUser {
  text: string;
  variable: string;
}

/** The users the rendered users Job creates, in the table's text form, with the variable each one's URL comes from. */
export function renderedMongoUsers(yaml: string): RenderedUser[] | undefined {
  const script = jobScript(yaml, USERS_JOB);
  if (script === undefined) return undefined;
  return script
    .split('\n')
    .map((line) => ENSURE_LINE.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(([, user, db, roles, variable]) => {
      const parsedRoles = JSON.parse(roles ?? '[]') as Array<{ role: string; db: string }>;
      const text = [`${JSON.parse(user ?? '""') as string}@${JSON.parse(db ?? '""') as string}`, ...parsedRoles.map((r) => `${r.role}@${r.db}`)].join(' ');
      return { text, variable: JSON.parse(variable ?? '""') as string };
    });
}

function secretOf(env: readonly EnvVar[], variable: string): string | undefined {
  return env.find((e) => e.name === variable)?.valueFrom?.secretKeyRef?.name;
}

/** The Secret each workload (by component) reads its MONGO_URL from; the users Job excluded. */
function serviceMongoSecrets(yaml: string): Map<string, { kind: string; secret: string | undefined; env: EnvVar[] }> {
  const byComponent = new Map<string, { kind: string; secret: string | undefined; env: EnvVar[] }>();
  for (const workload of workloadsOf(yaml)) {
    if (workload.kind !== 'Deployment' && workload.kind !== 'CronJob' && workload.kind !== 'Job') continue;
    const component = workload.metadata?.labels?.[COMPONENT] ?? '(unlabelled)';
    if (component === USERS_JOB) continue;
    const env = containersOf(workload).flatMap((c) => c.env ?? []);
    byComponent.set(component, { kind: workload.kind, secret: secretOf(env, 'MONGO_URL'), env });
  }
  return byComponent;
}

/**
 * The users Job creates exactly the table's users with exactly its roles (under the render's database
 * prefix), and sets each one's password from the very Secret that user's service connects with.
 */
export function checkRenderedMongoUsers(yaml: string, variant: string, dbPrefix?: string): StepResult {
  const name = `MongoDB users (${variant}): the users Job creates exactly the table of packages/mongo/src/database-access.ts`;
  const rendered = renderedMongoUsers(yaml);
  if (!rendered) return { name, ok: false, detail: `no ${USERS_JOB} Job rendered` };
  const expected = mongoUsers(dbPrefix).map(mongoUserText);
  const have = new Set(rendered.map((u) => u.text));
  const want = new Set(expected);
  const problems = [
    ...expected.filter((u) => !have.has(u)).map((u) => `missing ${u}`),
    ...rendered.filter((u) => !want.has(u.text)).map((u) => `not in the table: ${u.text}`),
  ];
  if (rendered.length !== have.size) problems.push('a user is rendered twice');
  const jobEnv = workloadsOf(yaml)
    .filter((w) => w.kind === 'Job' && w.metadata?.labels?.[COMPONENT] === USERS_JOB)
    .flatMap(containersOf)
    .flatMap((c) => c.env ?? []);
  const services = serviceMongoSecrets(yaml);
  for (const user of rendered) {
    const service = user.text.split('@')[0] ?? '';
    const jobSecret = secretOf(jobEnv, user.variable);
    const serviceSecret = services.get(service)?.secret;
    if (serviceSecret !== undefined && jobSecret !== serviceSecret) {
      problems.push(`${service}'s password is set from Secret ${jobSecret ?? '(none)'}, but ${service} connects with ${serviceSecret}`);
    }
  }
  return { name, ok: problems.length === 0, detail: problems.length === 0 ? `${rendered.length} users` : problems.join('; ') };
}

/**
 * Each service connects to the database with its own URL (its own user) from a Secret of its own, and
 * references no other service's: a pod that could read another's URL could write its database.
 */
export function checkMongoLogins(yaml: string, variant: string): StepResult {
  const problems: string[] = [];
  const services = serviceMongoSecrets(yaml);
  const owners = new Map<string, string>();
  let connected = 0;
  for (const [component, { kind, secret }] of services) {
    if (secret === undefined) {
      if (kind === 'Deployment' && isDatabaseUser(component)) problems.push(`${component} has no MONGO_URL from a Secret`);
      continue;
    }
    connected++;
    if (!isDatabaseUser(component)) problems.push(`${component} reads MONGO_URL but has no user in the table`);
    else if (!secret.endsWith(`-${component}`)) problems.push(`${component} reads its MONGO_URL from Secret ${secret}, not its own`);
    const owner = owners.get(secret);
    if (owner !== undefined) problems.push(`${component} and ${owner} share the database Secret ${secret}`);
    owners.set(secret, component);
  }
  for (const [component, { env }] of services) {
    for (const ref of env.filter((e) => e.name !== 'MONGO_URL')) {
      const owner = owners.get(ref.valueFrom?.secretKeyRef?.name ?? '');
      if (owner !== undefined && owner !== component) problems.push(`${component} also reads ${owner}'s database Secret as ${ref.name ?? '(unnamed)'}`);
    }
  }
  if (connected === 0) problems.push('no workload connects to the database');
  return {
    name: `MongoDB logins (${variant}): each service its own user's URL, from its own Secret only`,
    ok: problems.length === 0,
    detail: problems.length === 0 ? `${connected} workloads` : problems.join('; '),
  };
}
