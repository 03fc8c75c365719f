import type { JsonSchema } from '../schemas/json-schema.js';

const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];
const SCHEMA_VALUES = [
  'items',
  'additionalProperties',
  'not',
  'propertyNames',
  'contains',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Turns every titled schema into a named component and a `$ref` to it, so the document shows
 * `GeoPoint` once rather than inlined forty times. Titles are the names: two different schemas with
 * one title would silently document the wrong shape, so that throws.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly fingerprints = new Map<string, string>();

  reference(schema: JsonSchema): JsonSchema {
    const converted = this.convertChildren(schema);
    const title = schema['title'];
    if (typeof title !== 'string') return converted;
    const fingerprint = JSON.stringify(converted);
    const known = this.fingerprints.get(title);
    if (known === undefined) {
      this.fingerprints.set(title, fingerprint);
      this.schemas[title] = converted;
    } else if (known !== fingerprint) {
      throw new Error(`two different schemas are titled ${title}`);
    }
    return { $ref: `#/components/schemas/${encodeURIComponent(title)}` };
  }

  private convertChildren(schema: JsonSchema): JsonSchema {
    const out: Record<string, unknown> = { ...schema };
    for (const key of SCHEMA_MAPS) {
      const map = schema[key];
      if (isSchema(map)) {
        out[key] = Object.fromEntries(Object.entries(map).map(([name, sub]) => [name, isSchema(sub) ? this.reference(sub) : sub]));
      }
    }
    for (const key of SCHEMA_VALUES) {
      const sub = schema[key];
      if (isSchema(sub)) out[key] = this.reference(sub);
    }
    for (const key of SCHEMA_LISTS) {
      const list = schema[key];
      if (Array.isArray(list)) out[key] = list.map((sub: unknown) => (isSchema(sub) ? this.reference(sub) : sub));
    }
    return out;
  }
}
