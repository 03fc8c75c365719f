import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * Request and response schemas are plain JSON Schema 2020-12 objects (the dialect of OpenAPI 3.1), so
 * the same object validates requests (ajv) and documents them (openapi.json).
 *
 * A schema with a `title` becomes a named component of the OpenAPI document; titles are unique.
 *
 * The builders below keep the literal type of what they build (`const` type parameters), so the static
 * type of an input follows from its schema (`Validated<typeof LoginRequest>`) instead of being written a
 * second time by hand. Schema values that are not built by them are declared `as const` for the same reason.
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

type SchemaMap = Readonly<Record<string, JsonSchema>>;
/** Keywords added beside the structural ones: description, bounds, anyOf/oneOf alternatives. */
type Keywords = Readonly<Record<string, unknown>>;
/** No further keywords: the identity of the intersections below (what `{}` would say, without admitting any value). */
type NoKeywords = Record<never, never>;

/**
 * The value a schema admits, as the request validator hands it to a handler (path and query values
 * already coerced to their schema types). Distributes over unions, so one operation of several alarm
 * kinds has the union of their inputs.
 *
 * What it cannot express stays wider than the schema: formats, bounds and patterns are not types.
 * It reads tuples in their draft-7 form only: build 2020-12 tuples with tupleOf.
 */
export type Validated<S> = S extends JSONSchema ? FromSchema<S> : never;

export type ClosedObject<P, R, E> = { readonly type: 'object'; readonly properties: P; readonly required: R; readonly additionalProperties: false } & E;
export type OpenObject<P, R, E> = { readonly type: 'object'; readonly properties: P; readonly required: R } & E;

/** A closed object: unknown fields are rejected, so a typo or a field the caller may not set is a clear 400. */
export function closedObject<const P extends SchemaMap, const R extends readonly string[] = readonly [], const E extends Keywords = NoKeywords>(
  properties: P,
  required?: R,
  extra?: E,
): ClosedObject<P, R, E> {
  // The copy of `required` is what ajv and the document get; its static type stays the literal tuple.
  return { type: 'object', properties, required: [...(required ?? [])], additionalProperties: false, ...extra } as ClosedObject<P, R, E>;
}

/** A response object: documented fields, open to additions so the document never lies about extras. */
export function openObject<const P extends SchemaMap, const R extends readonly string[] = readonly [], const E extends Keywords = NoKeywords>(
  properties: P,
  required?: R,
  extra?: E,
): OpenObject<P, R, E> {
  return { type: 'object', properties, required: [...(required ?? [])], ...extra } as OpenObject<P, R, E>;
}

export function named<const S extends JsonSchema>(title: string, schema: S): { readonly title: string } & S {
  return { title, ...schema };
}

export type ArrayOf<I, E> = { readonly type: 'array'; readonly items: I } & E;
export type EnumOf<V, E> = { readonly type: 'string'; readonly enum: V } & E;

export function arrayOf<const I extends JsonSchema, const E extends Keywords = NoKeywords>(items: I, extra?: E): ArrayOf<I, E> {
  return { type: 'array', items, ...extra } as ArrayOf<I, E>;
}

export function enumOf<const V extends readonly string[], const E extends Keywords = NoKeywords>(values: V, extra?: E): EnumOf<V, E> {
  return { type: 'string', enum: [...values], ...extra } as EnumOf<V, E>;
}

export type TupleOf<I extends readonly unknown[], E> = {
  readonly type: 'array';
  readonly items: I;
  readonly additionalItems: false;
  readonly minItems: I['length'];
} & E;

/**
 * A fixed-length 2020-12 tuple: `prefixItems` and no further items. FromSchema reads only the draft-7
 * tuple form, so the static type states that form (`items` as the list, `additionalItems: false`);
 * the object built, which ajv and the document get, is the 2020-12 one.
 */

export function tupleOf<const I extends readonly JsonSchema[], const E extends Keywords = NoKeywords>(items: I, extra?: E): TupleOf<I, E> {
  const built = { type: 'array', prefixItems: items, items: false, minItems: items.length, ...extra };
  return built as unknown as TupleOf<I, E>;
}

/** Schema of the path parameters of one operation: every parameter is required. */
export function pathParams<const P extends SchemaMap>(properties: P): ClosedObject<P, readonly (keyof P & string)[], NoKeywords> {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false } as ClosedObject<
    P,
    readonly (keyof P & string)[],
    NoKeywords
  >;
}
