/**
 * Request and response schemas are plain JSON Schema 2020-12 objects (the dialect of OpenAPI 3.1), so
 * the same object validates requests (ajv) and documents them (openapi.json).
 *
 * A schema with a `title` becomes a named component of the OpenAPI document; titles are unique.
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** A closed object: unknown fields are rejected, so a typo or a field the caller may not set is a clear 400. */
export function closedObject(
  properties: Record<string, JsonSchema>,
  required: readonly string[] = [],
  extra: Record<string, unknown> = {},
): JsonSchema {
  return { type: 'object', properties, required: [...required], additionalProperties: false, ...extra };
}

/** A response object: documented fields, open to additions so the document never lies about extras. */
export function openObject(
  properties: Record<string, JsonSchema>,
  required: readonly string[] = [],
  extra: Record<string, unknown> = {},
): JsonSchema {
  return { type: 'object', properties, required: [...required], ...extra };
}

export function named(title: string, schema: JsonSchema): JsonSchema {
  return { title, ...schema };
}

export function arrayOf(items: JsonSchema, extra: Record<string, unknown> = {}): JsonSchema {
  return { type: 'array', items, ...extra };
}

export function enumOf(values: readonly string[], extra: Record<string, unknown> = {}): JsonSchema {
  return { type: 'string', enum: [...values], ...extra };
}

/** Schema of the path parameters of one operation: every parameter is required. */
export function pathParams(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}
