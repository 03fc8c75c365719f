import type { SchemaObject } from 'ajv';

/**
 * One environment variable: how its text becomes a value, the JSON schema that value must satisfy,
 * and the words used when it does not. `T` is the type the loaded config exposes for it.
 */
export interface VarSpec<T> {
  /** JSON schema (ajv) of the coerced value. */
  readonly schema: SchemaObject;
  /** Completes "NAME must be ...": e.g. "an integer from 0 to 65535". */
  readonly expected: string;
  /** Turns the raw text into the value to validate; returns the text unchanged when it cannot. */
  readonly coerce: (raw: string) => unknown;
  /** Used when the variable is unset (or empty). */
  readonly default?: T;
  readonly hasDefault: boolean;
  /** Unset and no default gives `undefined` instead of an error. */
  readonly optional: boolean;
  /** Never echo the value in an error. */
  readonly secret: boolean;
  /** What the variable is for; for generated docs and `--help` output, not used in validation. */
  readonly description?: string;
  /** Carries T for inference only; never set. */
  readonly __type?: T;
}

/** Options every kind accepts. */
export interface CommonOptions<T> {
  default?: T;
  optional?: boolean;
  secret?: boolean;
  description?: string;
}

export function makeSpec<T>(parts: Pick<VarSpec<T>, 'schema' | 'expected' | 'coerce'>, opts: CommonOptions<T> = {}): VarSpec<T> {
  const hasDefault = opts.default !== undefined;
  return {
    ...parts,
    ...(hasDefault ? { default: opts.default } : {}),
    hasDefault,
    optional: opts.optional === true,
    secret: opts.secret === true,
    ...(opts.description !== undefined ? { description: opts.description } : {}),
  };
}
