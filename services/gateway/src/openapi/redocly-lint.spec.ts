import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROUTES } from '../routes/table.js';
import { buildOpenApiDocument } from './document.js';

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}

/**
 * Warnings of Redocly's `recommended` ruleset the document keeps on purpose, by rule and place. Any
 * other warning fails, as every error does: a new one is either fixed or added here with its reason.
 */
const ACCEPTED_WARNINGS: ReadonlyArray<{ ruleId: string; pointer: RegExp; why: string }> = [
  {
    ruleId: 'operation-4xx-response',
    pointer: /^#\/paths\/~1v1~1(health(~1live|~1ready)?|openapi\.json|asyncapi\.json)\/get\/responses$/,
    why: 'public probes and documents answer 200 or 503, never a client error',
  },
  {
    ruleId: 'no-ambiguous-paths',
    pointer: /^#\/paths\/~1v1~1alarms~1forecasts~1\{countryCode\}~1cities$/,
    why: 'both paths are fixed by the interface contract (4.12 beside the unregister path); the literal segment wins in routing',
  },
  {
    ruleId: 'no-required-schema-properties-undefined',
    pointer: /^#\/components\/schemas\/CreateUserRequest\/oneOf\/[01]\/not\/required\/0$/,
    why: '"not: {required: [role]}" says the other branch must not send it: role or roles, never both',
  },
  { ruleId: 'info-license', pointer: /^#\/info$/, why: 'a commercial API: there is no public licence to name' },
];

const redocly = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

async function lint(document: unknown): Promise<LintProblem[]> {
  const dir = await mkdtemp(join(tmpdir(), 'stormhook-redocly-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    // Exit status 1 when a problem is an error: the JSON report is on stdout either way.
    const { stdout } = await promisify(execFile)(process.execPath, [redocly, 'lint', file, '--extends', 'recommended', '--format', 'json'], {
      env,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      if (typeof error.stdout === 'string' && error.stdout.trim().startsWith('{')) return { stdout: error.stdout };
      throw new Error(`redocly lint did not report: ${error.stderr ?? String(error)}`);
    });
    return (JSON.parse(stdout) as { problems: LintProblem[] }).problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const describeProblem = (p: LintProblem): string => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`;
const accepted = (p: LintProblem): boolean =>
  p.severity === 'warn' && ACCEPTED_WARNINGS.some((a) => a.ruleId === p.ruleId && a.pointer.test(p.location[0]?.pointer ?? ''));

describe('the OpenAPI document under Redocly recommended lint', function () {
  this.timeout(60_000);

  it('has no error and no warning beyond the accepted ones', async () => {
    const problems = await lint(buildOpenApiDocument(ROUTES));
    assert.deepEqual(problems.filter((p) => !accepted(p)).map(describeProblem), []);
  });

  it('fails a callback that declares no security, the error the document had before callbacks declared theirs', async () => {
    const document = buildOpenApiDocument(ROUTES) as unknown as { webhooks: Record<string, { post: Record<string, unknown> }> };
    delete document.webhooks['webhook.test']?.post['security'];
    const errors = (await lint(document)).filter((p) => p.severity === 'error');
    assert.deepEqual(
      errors.map((p) => [p.ruleId, p.location[0]?.pointer]),
      [['security-defined', '#/webhooks/webhook.test/post']],
    );
  });
});
