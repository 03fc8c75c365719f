#!/usr/bin/env node
// Generates packages/proto/src/generated/ from every .proto under proto/.
//
//   node packages/proto/codegen/generate.mjs           write the generated files
//   node packages/proto/codegen/generate.mjs --check   exit 1 when the committed files are stale
//
// Works from any working directory: every path is found from this file's own location.
// --proto DIR and --out DIR point elsewhere (the generator's own tests use them).
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findProtoFiles, loadRoot, toPosix } from './load.mjs';
import { lint } from './lint.mjs';
import { buildModel } from './model.mjs';
import { renderIndex, renderRoot } from './render-index.mjs';
import { renderPackage } from './render-package.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..', '..');

function parseArgs(argv) {
  const options = { check: false, protoDir: join(repoRoot, 'proto'), outDir: resolve(here, '..', 'src', 'generated') };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--check') options.check = true;
    else if (arg === '--proto' && argv[i + 1]) options.protoDir = resolve(argv[++i]);
    else if (arg === '--out' && argv[i + 1]) options.outDir = resolve(argv[++i]);
    else throw new UsageError(`unknown argument '${arg}'`);
  }
  return options;
}

class UsageError extends Error {}

/** The complete generated tree as { relative path -> content }. */
export function generate(protoDir) {
  const files = findProtoFiles(protoDir);
  if (!files.length) throw new Error(`no .proto files under ${protoDir}`);
  const root = loadRoot(protoDir, files);
  const problems = lint(root, protoDir);
  if (problems.length) {
    const error = new Error(`the contract tree breaks ${problems.length} rule(s) of proto/README.md:\n  ${problems.join('\n  ')}`);
    error.name = 'LintError';
    throw error;
  }
  const packages = buildModel(root, protoDir);
  const output = new Map();
  output.set('root.ts', renderRoot(root));
  for (const pkg of packages) output.set(`${pkg.name}.ts`, renderPackage(pkg));
  output.set('index.ts', renderIndex(packages));
  return output;
}

function existingFiles(dir) {
  if (!existsSync(dir)) return [];
  const found = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(toPosix(relative(dir, full)));
    }
  };
  walk(dir);
  return found.sort();
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const output = generate(options.protoDir);
  const shown = toPosix(relative(process.cwd(), options.outDir)) || '.';
  const present = existingFiles(options.outDir);

  if (options.check) {
    const stale = [];
    for (const [name, content] of output) {
      const path = join(options.outDir, name);
      if (!existsSync(path)) stale.push(`${name} (missing)`);
      else if (readFileSync(path, 'utf8') !== content) stale.push(`${name} (differs)`);
    }
    for (const name of present) if (!output.has(name)) stale.push(`${name} (no longer generated)`);
    if (stale.length) {
      process.stderr.write(
        `generated protobuf code in ${shown} is stale:\n  ${stale.join('\n  ')}\n` + 'Run `node packages/proto/codegen/generate.mjs` and commit the result.\n',
      );
      process.exit(1);
    }
    process.stdout.write(`generated protobuf code in ${shown} is up to date (${output.size} files)\n`);
    return;
  }

  mkdirSync(options.outDir, { recursive: true });
  for (const name of present) if (!output.has(name)) rmSync(join(options.outDir, name));
  for (const [name, content] of output) {
    const path = join(options.outDir, name);
    if (existsSync(path) && readFileSync(path, 'utf8') === content) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  process.stdout.write(`generated ${output.size} files into ${shown}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    const usage = error instanceof UsageError;
    process.stderr.write(`generate.mjs: ${error instanceof Error ? error.message : String(error)}\n`);
    if (usage) process.stderr.write('usage: generate.mjs [--check] [--proto DIR] [--out DIR]\n');
    process.exit(2);
  }
}
