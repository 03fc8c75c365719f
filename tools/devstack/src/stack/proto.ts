import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../paths.js';

const generator = join(repoRoot, 'packages', 'proto', 'codegen', 'generate.mjs');

function runGenerator(args: string[]): Promise<number> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [generator, ...args], { cwd: repoRoot, stdio: 'inherit' });
    child.on('exit', (code) => resolvePromise(code ?? 1));
  });
}

/** Regenerates packages/proto/src/generated from proto/. */
export function generateProto(): Promise<number> {
  return runGenerator([]);
}

/** Fails when the committed generated code no longer matches proto/. */
export async function checkProto(log: (m: string) => void): Promise<number> {
  const code = await runGenerator(['--check']);
  if (code !== 0) log('generated protobuf code is stale: run `npm run proto:gen` and commit the result');
  return code;
}
