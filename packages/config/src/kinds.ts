import { makeSpec, type CommonOptions, type VarSpec } from './var-spec.js';

interface Required<T> extends CommonOptions<T> {
  optional?: false;
}
interface Optional<T> extends CommonOptions<T> {
  optional: true;
  default?: undefined;
}

function range(kind: string, min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
  if (min !== undefined) return `${kind} of at least ${min}`;
  if (max !== undefined) return `${kind} of at most ${max}`;
  return kind;
}

function bounds(min: number | undefined, max: number | undefined): { minimum?: number; maximum?: number } {
  return { ...(min !== undefined ? { minimum: min } : {}), ...(max !== undefined ? { maximum: max } : {}) };
}

export interface StrOptions {
  minLength?: number;
  maxLength?: number;
  /** A regular expression the whole value must match (anchor it yourself). */
  pattern?: string;
  /** An ajv-formats format name, e.g. "hostname", "email", "uuid". */
  format?: string;
}
export function str(opts: StrOptions & Optional<string>): VarSpec<string | undefined>;
export function str(opts?: StrOptions & Required<string>): VarSpec<string>;
export function str(opts: StrOptions & CommonOptions<string> = {}): VarSpec<string | undefined> {
  const details = [
    opts.minLength !== undefined ? `of at least ${opts.minLength} characters` : undefined,
    opts.maxLength !== undefined ? `of at most ${opts.maxLength} characters` : undefined,
    opts.pattern !== undefined ? `matching /${opts.pattern}/` : undefined,
    opts.format !== undefined ? `in ${opts.format} format` : undefined,
  ].filter((d) => d !== undefined);
  return makeSpec(
    {
      schema: {
        type: 'string',
        ...(opts.minLength !== undefined ? { minLength: opts.minLength } : {}),
        ...(opts.maxLength !== undefined ? { maxLength: opts.maxLength } : {}),
        ...(opts.pattern !== undefined ? { pattern: opts.pattern } : {}),
        ...(opts.format !== undefined ? { format: opts.format } : {}),
      },
      expected: details.length ? `a string ${details.join(', ')}` : 'a string',
      coerce: (raw) => raw,
    },
    opts,
  );
}

export interface NumberOptions {
  min?: number;
  max?: number;
}

const INTEGER = /^[+-]?\d+$/;
export function int(opts: NumberOptions & Optional<number>): VarSpec<number | undefined>;
export function int(opts?: NumberOptions & Required<number>): VarSpec<number>;
export function int(opts: NumberOptions & CommonOptions<number> = {}): VarSpec<number | undefined> {
  return makeSpec(
    {
      schema: { type: 'integer', ...bounds(opts.min, opts.max) },
      expected: range('an integer', opts.min, opts.max),
      // Number('0x10'), Number('1e3') and Number(' ') would all pass as integers; only plain digits do here.
      coerce: (raw) => (INTEGER.test(raw.trim()) ? Number(raw.trim()) : raw),
    },
    opts,
  );
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
export function num(opts: NumberOptions & Optional<number>): VarSpec<number | undefined>;
export function num(opts?: NumberOptions & Required<number>): VarSpec<number>;
export function num(opts: NumberOptions & CommonOptions<number> = {}): VarSpec<number | undefined> {
  return makeSpec(
    {
      schema: { type: 'number', ...bounds(opts.min, opts.max) },
      expected: range('a number', opts.min, opts.max),
      coerce: (raw) => (DECIMAL.test(raw.trim()) ? Number(raw.trim()) : raw),
    },
    opts,
  );
}

export function port(opts: Optional<number>): VarSpec<number | undefined>;
export function port(opts?: Required<number>): VarSpec<number>;
export function port(opts: CommonOptions<number> = {}): VarSpec<number | undefined> {
  return int({ ...opts, min: 0, max: 65535 } as NumberOptions & Required<number>);
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);
export function bool(opts: Optional<boolean>): VarSpec<boolean | undefined>;
export function bool(opts?: Required<boolean>): VarSpec<boolean>;
export function bool(opts: CommonOptions<boolean> = {}): VarSpec<boolean | undefined> {
  return makeSpec(
    {
      schema: { type: 'boolean' },
      expected: 'a boolean (true/false, 1/0, yes/no, on/off)',
      coerce: (raw) => {
        const word = raw.trim().toLowerCase();
        return TRUE.has(word) ? true : FALSE.has(word) ? false : raw;
      },
    },
    opts,
  );
}

export interface ListOptions {
  /** Default 1: a list that is set but holds nothing ("," or " , ") is a mistake. */
  minItems?: number;
  /** A regular expression every item must match. */
  itemPattern?: string;
  separator?: string;
}
export function list(opts: ListOptions & Optional<string[]>): VarSpec<string[] | undefined>;
export function list(opts?: ListOptions & Required<string[]>): VarSpec<string[]>;
export function list(opts: ListOptions & CommonOptions<string[]> = {}): VarSpec<string[] | undefined> {
  const separator = opts.separator ?? ',';
  const minItems = opts.minItems ?? 1;
  const pattern = opts.itemPattern;
  const label = separator === ',' ? 'comma' : `"${separator}"`;
  return makeSpec(
    {
      schema: { type: 'array', minItems, items: { type: 'string', ...(pattern !== undefined ? { pattern } : {}) } },
      expected:
        `a ${label}-separated list of at least ${minItems} item${minItems === 1 ? '' : 's'}` + (pattern !== undefined ? `, each matching /${pattern}/` : ''),
      coerce: (raw) =>
        raw
          .split(separator)
          .map((item) => item.trim())
          .filter((item) => item !== ''),
    },
    opts,
  );
}

export interface UrlOptions {
  /** Allowed schemes without "://", e.g. ['mongodb', 'mongodb+srv']. Any when omitted. */
  protocols?: string[];
}
const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export function url(opts: UrlOptions & Optional<string>): VarSpec<string | undefined>;
export function url(opts?: UrlOptions & Required<string>): VarSpec<string>;
export function url(opts: UrlOptions & CommonOptions<string> = {}): VarSpec<string | undefined> {
  const protocols = opts.protocols;
  const schemes = protocols?.length ? `^(${protocols.map(escapeRegex).join('|')})://` : undefined;
  return makeSpec(
    {
      schema: { type: 'string', format: 'env-url', ...(schemes !== undefined ? { pattern: schemes } : {}) },
      expected: protocols?.length ? `a URL with protocol ${protocols.join(' or ')}` : 'an absolute URL',
      coerce: (raw) => raw.trim(),
    },
    opts,
  );
}

export function oneOf<const V extends readonly string[]>(values: V, opts: Optional<V[number]>): VarSpec<V[number] | undefined>;
export function oneOf<const V extends readonly string[]>(values: V, opts?: Required<V[number]>): VarSpec<V[number]>;
export function oneOf<const V extends readonly string[]>(values: V, opts: CommonOptions<V[number]> = {}): VarSpec<V[number] | undefined> {
  return makeSpec(
    {
      schema: { type: 'string', enum: [...values] },
      expected: `one of ${values.join(', ')}`,
      coerce: (raw) => raw.trim(),
    },
    opts,
  );
}
