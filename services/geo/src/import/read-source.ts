import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export type SourceFile = { readonly found: true; readonly text: string; readonly location: string } | { readonly found: false; readonly location: string };

export function isUrlSource(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** Without credentials, for logs and the stored import run. */
export function describeSource(source: string): string {
  return isUrlSource(source) ? source.replace(/^(https?:\/\/)[^@/]*@/i, '$1***@') : source;
}

export interface ReadOptions {
  /** Per-file download limit. Default 60 s. */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

/**
 * One file of a boundary source: `<dir>/<file>` or `<url>/<file>`. A missing file (ENOENT, HTTP 404)
 * is an answer, not an error, because a source may hold only some levels; anything else (permission,
 * network, 5xx) throws so that a broken source never looks like an empty one.
 */
export async function readSourceFile(source: string, file: string, options: ReadOptions = {}): Promise<SourceFile> {
  if (isUrlSource(source)) {
    const url = new URL(file, source.endsWith('/') ? source : `${source}/`);
    const location = describeSource(url.toString());
    // fetch refuses URLs with credentials: move them into a Basic authorization header.
    const headers: Record<string, string> = {};
    if (url.username || url.password) {
      const user = decodeURIComponent(url.username);
      const password = decodeURIComponent(url.password);
      headers['authorization'] = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    const response = await (options.fetch ?? fetch)(url, { headers, signal: AbortSignal.timeout(options.timeoutMs ?? 60_000) });
    if (response.status === 404) return { found: false, location };
    if (!response.ok) throw new Error(`GET ${location} answered ${response.status} ${response.statusText}`);
    return { found: true, text: await response.text(), location };
  }
  const path = join(source, file);
  try {
    return { found: true, text: await readFile(path, 'utf8'), location: path };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { found: false, location: path };
    throw error;
  }
}
