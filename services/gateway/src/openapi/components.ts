import type { JsonSchema } from '../schemas/json-schema.js';

const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];
const SCHEMA_VALUES = ['items', 'additionalProperties', 'not', 'propertyNames', 'contains', 'if', 'then', 'else', 'unevaluatedProperties', 'unevaluatedItems'];
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
    const mapping = discriminatorMapping(schema, out);
    if (mapping) out['discriminator'] = { ...(schema['discriminator'] as object), mapping };
    return out;
  }
}

/**
 * OpenAPI reads a discriminator's value as a schema name unless `mapping` says otherwise; our
 * branches are told apart by a `const` (e.g. `type: "ADMINISTRATIVE"`), so the document gets the
 * mapping from each branch's const to its component. ajv, which validates requests, rejects
 * `mapping`: that is why it is added here and not in the schemas.
 */
function discriminatorMapping(schema: JsonSchema, converted: Record<string, unknown>): Record<string, string> | undefined {
  const discriminator = schema['discriminator'];
  const branches = schema['oneOf'];
  const refs = converted['oneOf'];
  if (!isSchema(discriminator) || typeof discriminator['propertyName'] !== 'string' || !Array.isArray(branches) || !Array.isArray(refs)) return undefined;
  const property = discriminator['propertyName'];
  const mapping: Record<string, string> = {};
  branches.forEach((branch: unknown, i: number) => {
    const properties = isSchema(branch) ? branch['properties'] : undefined;
    const value = isSchema(properties) && isSchema(properties[property]) ? properties[property]['const'] : undefined;
    const ref = refs[i];
    if (typeof value === 'string' && isSchema(ref) && typeof ref['$ref'] === 'string') mapping[value] = ref['$ref'];
  });
  return Object.keys(mapping).length > 0 ? mapping : undefined;
}
