import { Ajv, type ErrorObject } from 'ajv';
import formats from 'ajv-formats';
import { ConfigError, type ConfigIssue } from './config-error.js';
import { isUrl } from './url-format.js';
import type { VarSpec } from './var-spec.js';

export type EnvSpec = Record<string, VarSpec<unknown>>;

/** The loaded config type of a spec: `{ PORT: number; ... }`. */
export type ConfigOf<S extends EnvSpec> = { readonly [K in keyof S]: S[K] extends VarSpec<infer T> ? T : never };

export type EnvSource = Record<string, string | undefined>;
export type LoadConfig<S extends EnvSpec> = (env?: EnvSource) => ConfigOf<S>;

const MAX_ECHO = 80;

function shown(raw: string, secret: boolean): string {
  if (secret) return '(value hidden)';
  const text = raw.length > MAX_ECHO ? `${raw.slice(0, MAX_ECHO)}...` : raw;
  return `(got ${JSON.stringify(text)})`;
}

/** "/KAFKA_BROKERS/1" -> "KAFKA_BROKERS" (JSON pointer, so ~1 and ~0 are unescaped). */
function variableOf(error: ErrorObject): string | undefined {
  const first = error.instancePath.split('/')[1];
  return first?.replace(/~1/g, '/').replace(/~0/g, '~');
}

function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true });
  // ajv-formats is CommonJS; under nodenext its function is on `.default`.
  formats.default(ajv);
  ajv.addFormat('env-url', { type: 'string', validate: isUrl });
  return ajv;
}

/**
 * Declares the environment a service reads and returns its `load(env = process.env)`. The schema is
 * compiled here, once; `load` checks every variable and throws one {@link ConfigError} naming all the
 * bad ones. Unset and empty are the same thing: an empty value takes the default, or is missing.
 */
export function defineEnv<const S extends EnvSpec>(spec: S): LoadConfig<S> {
  const names = Object.keys(spec);
  const validate = createAjv().compile({
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, spec[name]!.schema])),
  });

  return (env: EnvSource = process.env) => {
    const issues = new Map<string, ConfigIssue>();
    const values: Record<string, unknown> = {};
    const rawOf = new Map<string, string>();

    for (const name of names) {
      const varSpec = spec[name]!;
      const raw = env[name];
      if (raw === undefined || raw.trim() === '') {
        if (varSpec.hasDefault) values[name] = structuredClone(varSpec.default);
        else if (varSpec.optional) values[name] = undefined;
        else issues.set(name, { variable: name, problem: 'is required' });
        continue;
      }
      rawOf.set(name, raw);
      values[name] = varSpec.coerce(raw);
    }

    // Defaults go through the schema too: a bad default is a bug worth failing on at start.
    const present = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
    if (!validate(present)) {
      for (const error of validate.errors ?? []) {
        const name = variableOf(error);
        if (name === undefined || issues.has(name) || !(name in spec)) continue;
        const varSpec = spec[name]!;
        const raw = rawOf.get(name);
        const got = raw !== undefined ? shown(raw, varSpec.secret) : `(default ${varSpec.secret ? 'hidden' : JSON.stringify(varSpec.default)})`;
        issues.set(name, { variable: name, problem: `must be ${varSpec.expected} ${got}` });
      }
    }

    if (issues.size > 0) {
      // Report in declaration order, so the message reads like the spec.
      throw new ConfigError(names.flatMap((name) => issues.get(name) ?? []));
    }
    return Object.freeze(values) as ConfigOf<S>;
  };
}
