import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool, tail } from './run-tool.js';
import { TILT_EPILOGUE, tiltPrelude, type TiltContext } from './tilt-stubs.js';

export interface TiltfileCheck {
  ok: boolean;
  detail: string;
}

/** Rewrites `file:LINE:COL` positions of the combined program into positions in the Tiltfile. */
export function mapPositions(output: string, combinedName: string, preludeLines: number, tiltfileLines: number): string {
  const pattern = new RegExp(`${combinedName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+):(\\d+)`, 'g');
  return output.replace(pattern, (_match, line: string, column: string) => {
    const n = Number(line);
    if (n <= preludeLines) return `tilt-stubs:${n}:${column}`;
    if (n <= preludeLines + tiltfileLines) return `Tiltfile:${n - preludeLines}:${column}`;
    return `tilt-checks:${n - preludeLines - tiltfileLines}:${column}`;
  });
}

function lineCount(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

/**
 * Parses, resolves and runs the Tiltfile with the Starlark interpreter (go.starlark.net) against
 * stub builtins (tilt-stubs.ts), then checks that every path it names exists.
 */
export async function checkTiltfile(starlark: string, tiltfile: string, root: string, context: TiltContext): Promise<TiltfileCheck> {
  const prelude = `${tiltPrelude(context).trimEnd()}\n`;
  const raw = readFileSync(tiltfile, 'utf8');
  const source = raw.endsWith('\n') ? raw : `${raw}\n`;
  const dir = mkdtempSync(join(tmpdir(), 'stormhook-tilt-'));
  const combinedName = 'Tiltfile.star';
  try {
    writeFileSync(join(dir, combinedName), `${prelude}${source}${TILT_EPILOGUE}`);
    // Tilt's dialect allows top-level if/for and global reassignment.
    const run = await runTool(starlark, ['-globalreassign', combinedName], { cwd: dir, timeoutMs: 60_000 });
    const output = mapPositions(`${run.stdout}${run.stderr}`, combinedName, lineCount(prelude), lineCount(source));
    if (run.code !== 0) return { ok: false, detail: output.trim() || tail(run) };
    const pathsLine = output.split('\n').find((line) => line.startsWith('TILT_PATHS '));
    if (!pathsLine) return { ok: false, detail: `the Tiltfile ran but the epilogue printed nothing:\n${output}` };
    const paths = JSON.parse(pathsLine.slice('TILT_PATHS '.length)) as string[];
    const missing = [...new Set(paths)].filter((p) => !existsSync(join(root, p)));
    if (missing.length > 0) return { ok: false, detail: `the Tiltfile names paths that do not exist: ${missing.join(', ')}` };
    const resources = output.split('\n').find((line) => line.startsWith('TILT_RESOURCES ')) ?? '';
    return { ok: true, detail: `${new Set(paths).size} paths exist; resources ${resources.slice('TILT_RESOURCES '.length)}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
