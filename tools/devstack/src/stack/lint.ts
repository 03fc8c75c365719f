import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { repoRoot } from '../paths.js';

type Log = (message: string) => void;

/** What a developer types to format the tree; scripts/bootstrap.mjs runs prettier --write for it. */
export const formatCommand = 'npm run format';

// Kept in node_modules (ignored by git and the image builds) so that a second run on the same
// checkout re-checks only the files that changed; both caches key on content, not modification times,
// which a branch switch or a fresh clone resets.
const cacheDir = join(repoRoot, 'node_modules', '.cache');

/** The command-line entry of a root devDependency, to run with this Node. */
function cliOf(pkg: string): string {
  const require = createRequire(join(repoRoot, 'package.json'));
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
  const entry = typeof bin === 'string' ? bin : bin[pkg];
  if (entry === undefined) throw new Error(`${pkg} declares no '${pkg}' command`);
  return join(dirname(manifest), entry);
}

function runCli(cli: string, args: string[]): Promise<number> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: repoRoot, stdio: 'inherit' });
    child.on('error', () => resolvePromise(1));
    child.on('exit', (code) => resolvePromise(code ?? 1));
  });
}

/**
 * The format and lint check of `npm test` and `npm run lint`: prettier (prettier.config.mjs,
 * .prettierignore) must find every source formatted, and ESLint (eslint.config.mjs, with the import
 * boundaries) must find nothing, not even a warning. Both run so that one run lists every problem.
 */
export async function checkLint(log: Log): Promise<number> {
  const started = Date.now();
  const prettierArgs = ['--check', '--cache', '--cache-location', join(cacheDir, 'prettier', 'cache.json'), '--log-level', 'warn', '.'];
  const formatted = await runCli(cliOf('prettier'), prettierArgs);
  if (formatted !== 0) log(`the files listed above are not formatted: run \`${formatCommand}\` and commit the result`);
  const eslintArgs = ['--cache', '--cache-strategy', 'content', '--cache-location', join(cacheDir, 'eslint', 'cache.json'), '--max-warnings', '0', '.'];
  const linted = await runCli(cliOf('eslint'), eslintArgs);
  if (linted !== 0) log('eslint found the problems listed above; fix them in the code (the import boundaries are explained in lint/import-boundaries.mjs)');
  if (formatted !== 0 || linted !== 0) return 1;
  log(`format and lint: clean (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return 0;
}
