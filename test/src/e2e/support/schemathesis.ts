import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorShapeProblem } from './errors.js';
import { repoRoot } from './repo.js';

/** Pinned like every other tool the project fetches; the cache folder carries the version. */
export const SCHEMATHESIS_VERSION = '4.32.5';
const toolDir = join(repoRoot, '.stack', 'cache', 'tools', `schemathesis-${SCHEMATHESIS_VERSION}`);
const stBinary = join(toolDir, 'bin', 'st');
const completeMarker = join(toolDir, '.installed');

interface RunResult {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.length > 200_000) output = output.slice(-100_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, output: `${output}\n${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const tail = (text: string, lines = 25) => text.trim().split('\n').slice(-lines).join('\n');

/**
 * Schemathesis from PyPI in a virtual environment under .stack/cache/tools (ignored by git), made
 * on first use and reused after. Throws with the reason when it cannot be installed: the hostile
 * run must fail then, not skip.
 */
export async function ensureSchemathesis(): Promise<string> {
  if (existsSync(completeMarker) && existsSync(stBinary)) return stBinary;
  rmSync(toolDir, { recursive: true, force: true });
  mkdirSync(join(repoRoot, '.stack', 'cache', 'tools'), { recursive: true });
  const venv = await run('python3', ['-m', 'venv', toolDir], 120_000);
  if (venv.code !== 0) throw new Error(`cannot make a Python virtual environment for schemathesis (needs python3 with venv):\n${tail(venv.output)}`);
  const pip = await run(
    join(toolDir, 'bin', 'python'),
    ['-m', 'pip', 'install', '--disable-pip-version-check', '--quiet', `schemathesis==${SCHEMATHESIS_VERSION}`],
    600_000,
  );
  if (pip.code !== 0) {
    rmSync(toolDir, { recursive: true, force: true });
    throw new Error(`cannot install schemathesis ${SCHEMATHESIS_VERSION} from PyPI with pip:\n${tail(pip.output)}`);
  }
  const version = await run(stBinary, ['--version'], 60_000);
  if (version.code !== 0 || !version.output.includes(SCHEMATHESIS_VERSION))
    throw new Error(`schemathesis installed but does not run:\n${tail(version.output)}`);
  writeFileSync(completeMarker, `${SCHEMATHESIS_VERSION}\n`);
  return stBinary;
}

export interface FuzzOptions {
  baseUrl: string;
  token: string;
  /** Folder for the config file, the NDJSON report and the console output. */
  workDir: string;
  maxExamples: number;
  seed: number;
  /** operationIds left out of the run, each with its reason. */
  exclude: Record<string, string>;
  /** Path parameters that must name real data to get past a 404 (e.g. districtId). */
  parameters: Record<string, string | number>;
  timeoutMs: number;
}

/** What schemathesis found, judged by the suite's own rules rather than its exit code. */
export interface FuzzReport {
  requests: number;
  statuses: Record<string, number>;
  /** Operations answering 501 "not available yet": skipped, not failed. */
  pendingOperations: Record<string, string>;
  /** 5xx other than those 501s. */
  serverErrors: string[];
  /** 4xx/5xx answers that are not an ErrorResponse. */
  notErrorResponses: string[];
  /** Failed conformance checks (status code documented, content type, response schema). */
  conformanceFailures: string[];
  /** Requests that break the schema yet were accepted (reported; the gateway owner decides). */
  invalidAccepted: string[];
  consoleTail: string;
}

const CHECKS = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance', 'negative_data_rejection'];

function tomlValue(value: string | number): string {
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/**
 * Property-based fuzzing of every operation in /v1/openapi.json: examples, the coverage phase
 * (boundaries and invalid values of every schema) and random fuzzing, with the given bearer token.
 */
export async function fuzzApi(st: string, options: FuzzOptions): Promise<FuzzReport> {
  rmSync(options.workDir, { recursive: true, force: true });
  mkdirSync(options.workDir, { recursive: true });
  const config = join(options.workDir, 'schemathesis.toml');
  writeFileSync(
    config,
    [
      // Bearer only: generating an X-API-Key beside it is refused up front (401 "not both"), so
      // nothing would reach the operations.
      '[generation]',
      'with-security-parameters = false',
      '',
      '[parameters]',
      ...Object.entries(options.parameters).map(([name, value]) => `${JSON.stringify(name)} = ${tomlValue(value)}`),
      '',
    ].join('\n'),
  );
  const reportDir = join(options.workDir, 'report');
  const args = [
    '--config-file',
    config,
    'run',
    `${options.baseUrl}/v1/openapi.json`,
    '--header',
    `Authorization: Bearer ${options.token}`,
    '--checks',
    CHECKS.join(','),
    '--phases',
    'examples,coverage,fuzzing',
    '--max-examples',
    String(options.maxExamples),
    '--seed',
    String(options.seed),
    '--workers',
    '2',
    '--request-timeout',
    '20',
    '--no-shrink',
    '--report',
    'ndjson',
    '--report-dir',
    reportDir,
    ...Object.keys(options.exclude).flatMap((id) => ['--exclude-operation-id', id]),
  ];
  const result = await run(st, args, options.timeoutMs, { ...process.env, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false' });
  writeFileSync(join(options.workDir, 'console.txt'), result.output);
  const ndjson = existsSync(reportDir) ? readdirSync(reportDir).find((f) => f.endsWith('.ndjson')) : undefined;
  if (!ndjson) throw new Error(`schemathesis wrote no report (exit ${result.code}):\n${tail(result.output)}`);
  const report = analyse(readFileSync(join(reportDir, ndjson), 'utf8'));
  if (!report.finished)
    throw new Error(`schemathesis did not finish (exit ${result.code}; killed after ${options.timeoutMs / 1000} s?):\n${tail(result.output)}`);
  return { ...report.findings, consoleTail: tail(result.output, 15) };
}

interface Interaction {
  request: { method: string; uri: string; body?: { $base64?: string } };
  response?: { status_code: number; content?: { $base64?: string } };
}

interface CheckResult {
  name: string;
  status: string;
  failure_info?: { failure?: { title?: string; message?: string } };
}

const decode = (b64: string | undefined) => (b64 ? Buffer.from(b64, 'base64').toString('utf8') : '');

function analyse(ndjson: string): { finished: boolean; findings: Omit<FuzzReport, 'consoleTail'> } {
  const findings: Omit<FuzzReport, 'consoleTail'> = {
    requests: 0,
    statuses: {},
    pendingOperations: {},
    serverErrors: [],
    notErrorResponses: [],
    conformanceFailures: [],
    invalidAccepted: [],
  };
  let finished = false;
  // One line per operation and kind of finding is enough to act on.
  const seen = new Set<string>();
  const note = (list: string[], kind: string, label: string, entry: string) => {
    if (seen.has(`${kind}|${label}`)) return;
    seen.add(`${kind}|${label}`);
    list.push(`${label} :: ${entry}`);
  };
  for (const line of ndjson.split('\n')) {
    if (!line.trim()) continue;
    const event = JSON.parse(line) as Record<string, unknown>;
    if ('EngineFinished' in event) finished = true;
    if ('FatalError' in event) throw new Error(`schemathesis failed: ${JSON.stringify(event['FatalError']).slice(0, 2000)}`);
    const scenario = event['ScenarioFinished'] as
      { recorder?: { label: string; interactions?: Record<string, Interaction>; checks?: Record<string, CheckResult[]> } } | undefined;
    const recorder = scenario?.recorder;
    if (!recorder?.interactions) continue;
    for (const [caseId, interaction] of Object.entries(recorder.interactions)) {
      const response = interaction.response;
      if (!response) continue;
      findings.requests += 1;
      const status = response.status_code;
      findings.statuses[status] = (findings.statuses[status] ?? 0) + 1;
      const text = decode(response.content?.$base64);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const request = `${interaction.request.method} ${new URL(interaction.request.uri).pathname} ${decode(interaction.request.body?.$base64).slice(0, 300)}`;
      const pending =
        status === 501 && typeof (body as { message?: unknown })?.message === 'string' && /is not available yet$/.test((body as { message: string }).message);
      if (pending) findings.pendingOperations[recorder.label] = (body as { message: string }).message;
      else if (status >= 500) note(findings.serverErrors, 'server', recorder.label, `${status} ${text.slice(0, 300)} <- ${request}`);
      if (status >= 400) {
        const problem = errorShapeProblem(body, status);
        if (problem) note(findings.notErrorResponses, 'shape', recorder.label, `${status} ${problem}: ${text.slice(0, 200)} <- ${request}`);
      }
      for (const check of recorder.checks?.[caseId] ?? []) {
        if (check.status === 'success' || check.name === 'not_a_server_error') continue;
        if (pending) continue; // an operation not served yet documents no 501
        const message = (check.failure_info?.failure?.message ?? check.failure_info?.failure?.title ?? '').replace(/\s+/g, ' ').slice(0, 300);
        const entry = `${check.name}: ${message} <- ${request}`;
        if (check.name === 'negative_data_rejection') note(findings.invalidAccepted, check.name, recorder.label, entry);
        else note(findings.conformanceFailures, check.name, recorder.label, entry);
      }
    }
  }
  return { finished, findings };
}
