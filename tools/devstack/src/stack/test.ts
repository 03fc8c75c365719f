import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { DevstackConfig } from '../config.js';
import { runDeployChecks } from '../deploy/index.js';
import { ensureInfra } from '../infra/infra.js';
import { repoRoot } from '../paths.js';
import { checkProto } from './proto.js';
import { checkLint } from './lint.js';
import { nodeFlags } from './node-flags.js';
import { runnerEnv } from './runner-env.js';

type Log = (message: string) => void;

/** Where the compiled tests are: unit `*.spec.js` and integration `*.int.spec.js` alike. */
const specGlobs = ['packages/*/dist/**/*.spec.js', 'services/*/dist/**/*.spec.js', 'tools/*/dist/**/*.spec.js', 'test/dist/**/*.spec.js'];

/**
 * `npm test`: fails fast on stale generated code and on unformatted or lint-failing sources, runs
 * the deployment checks (chart, images, Tiltfile), then every unit and integration test
 * against the real Kafka and database (reusing a running stack's, or starting the embedded ones
 * and stopping them afterwards). Tests isolate themselves by database name and topic prefix.
 */
export async function runTests(config: DevstackConfig, log: Log, extraArgs: string[]): Promise<number> {
  const protoCode = await checkProto(log);
  if (protoCode !== 0) return protoCode;
  // A subset run (`npm test -- <globs>`) is for the developer's loop: the format, lint and chart
  // checks are not (`npm run lint` runs the first two alone).
  if (extraArgs.length === 0) {
    const lintCode = await checkLint(log);
    if (lintCode !== 0) return lintCode;
  }
  const deployFailures = extraArgs.length > 0 ? 0 : await runDeployChecks(log);
  const testCode = await runMocha(config, log, extraArgs);
  if (deployFailures > 0) log(`${deployFailures} deployment check(s) failed (see above)`);
  return testCode !== 0 ? testCode : deployFailures > 0 ? 1 : 0;
}

async function runMocha(config: DevstackConfig, log: Log, extraArgs: string[]): Promise<number> {
  const infra = await ensureInfra(config, log);
  try {
    const require = createRequire(join(repoRoot, 'package.json'));
    const mocha = join(require.resolve('mocha/package.json'), '..', 'bin', 'mocha.js');
    const reporter = join(repoRoot, 'tools', 'devstack', 'mocha', 'summary-reporter.cjs');
    const args = [mocha, '--config', join(repoRoot, '.mocharc.json'), '--reporter', reporter, ...(extraArgs.length > 0 ? extraArgs : specGlobs)];
    return await new Promise<number>((resolvePromise) => {
      const child = spawn(process.execPath, [...nodeFlags, ...args], {
        cwd: repoRoot,
        stdio: 'inherit',
        env: runnerEnv(infra, process.env['LOG_LEVEL'] ?? 'silent'),
      });
      const forward = (signal: NodeJS.Signals) => child.kill(signal);
      process.on('SIGINT', forward);
      process.on('SIGTERM', forward);
      child.on('exit', (code, signal) => {
        process.off('SIGINT', forward);
        process.off('SIGTERM', forward);
        resolvePromise(code ?? (signal ? 1 : 0));
      });
    });
  } finally {
    await infra.stop();
  }
}
