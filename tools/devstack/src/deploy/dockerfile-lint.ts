import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What can be checked of a Dockerfile without a Docker engine: pinned bases, a non-root final
 * user, exec-form entrypoint, a health check where required, and that every file copied from the
 * context exists and is not excluded by the ignore file that applies.
 */
export interface DockerfileRules {
  requireHealthcheck: boolean;
}

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export function instructions(text: string): Instruction[] {
  const result: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i] ?? '';
    const start = i + 1;
    if (/^\s*(#|$)/.test(line)) continue;
    while (line.trimEnd().endsWith('\\') && i + 1 < lines.length) {
      i++;
      const next = lines[i] ?? '';
      if (/^\s*#/.test(next)) continue;
      line = `${line.trimEnd().slice(0, -1)} ${next.trim()}`;
    }
    const match = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line);
    if (match) result.push({ keyword: (match[1] ?? '').toUpperCase(), args: (match[2] ?? '').trim(), line: start });
  }
  return result;
}

/** True when a .dockerignore pattern list excludes `path` (last match wins, `!` re-includes). */
export function ignored(path: string, patterns: readonly string[]): boolean {
  let excluded = false;
  for (const raw of patterns) {
    const negate = raw.startsWith('!');
    const pattern = (negate ? raw.slice(1) : raw).replace(/^\/+/, '');
    const regex = new RegExp(
      `^${pattern
        .split('**')
        .map((part) =>
          part
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '[^/]*')
            .replace(/\?/g, '[^/]'),
        )
        .join('.*')}(/.*)?$`,
    );
    if (regex.test(path)) excluded = !negate;
  }
  return excluded;
}

export function ignorePatterns(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

export function lintDockerfile(text: string, ignore: readonly string[], root: string, rules: DockerfileRules): string[] {
  const problems: string[] = [];
  const all = instructions(text);
  const args = new Map<string, string>();
  for (const i of all.filter((x) => x.keyword === 'ARG')) {
    const [name, value] = i.args.split('=', 2);
    if (name && value !== undefined && !args.has(name)) args.set(name, value);
  }
  const expand = (s: string) => s.replace(/\$\{?([A-Za-z_]+)\}?/g, (m, name: string) => args.get(name) ?? m);
  const stages = all.filter((i) => i.keyword === 'FROM');
  if (stages.length === 0) problems.push('no FROM');
  const stageNames = new Set(stages.map((s) => /\bAS\s+(\S+)/i.exec(s.args)?.[1]).filter((n): n is string => !!n));
  for (const from of stages) {
    const image = expand(from.args.split(/\s+/).find((t) => !t.startsWith('--')) ?? '');
    if (stageNames.has(image)) continue;
    if (!/:[^/]+$/.test(image) || image.endsWith(':latest')) problems.push(`line ${from.line}: base image ${image} is not pinned to a version`);
  }
  const lastFrom = stages.at(-1)?.line ?? 0;
  const finalStage = all.filter((i) => i.line >= lastFrom);
  const user = finalStage.filter((i) => i.keyword === 'USER').at(-1);
  if (!user) problems.push('the final stage sets no USER: it would run as root');
  else if (/^(root|0)(:|$)/.test(user.args)) problems.push(`line ${user.line}: the final USER is root`);
  const entrypoint = finalStage.filter((i) => i.keyword === 'ENTRYPOINT').at(-1);
  if (!entrypoint || !entrypoint.args.startsWith('[')) problems.push('the final stage needs an exec-form ENTRYPOINT (signals reach the process)');
  if (rules.requireHealthcheck && !finalStage.some((i) => i.keyword === 'HEALTHCHECK')) problems.push('the final stage has no HEALTHCHECK');
  for (const copy of all.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD')) {
    if (/--from=/.test(copy.args)) continue;
    const parts = copy.args.split(/\s+/).filter((t) => !t.startsWith('--'));
    for (const source of parts.slice(0, -1)) {
      if (source === '.' || source.includes('*')) continue;
      if (!existsSync(join(root, source))) problems.push(`line ${copy.line}: COPY source ${source} does not exist`);
      else if (ignored(source, ignore)) problems.push(`line ${copy.line}: COPY source ${source} is excluded by the ignore file`);
    }
  }
  return problems;
}

export function lintDockerfileAt(root: string, dockerfile: string, ignoreFile: string, rules: DockerfileRules): string[] {
  const text = readFileSync(join(root, dockerfile), 'utf8');
  const ignore = existsSync(join(root, ignoreFile)) ? ignorePatterns(readFileSync(join(root, ignoreFile), 'utf8')) : [];
  return lintDockerfile(text, ignore, root, rules);
}
