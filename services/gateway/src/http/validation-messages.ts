import type { ErrorObject } from 'ajv/dist/2020.js';

/** `/center/lat` -> `center.lat`, `/metrics/0` -> `metrics[0]` (JSON pointer escapes decoded). */
export function fieldPath(instancePath: string): string {
  let out = '';
  for (const raw of instancePath.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(segment) ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  }
  return out;
}

function join(base: string, property: unknown): string {
  const name = String(property);
  return base === '' ? name : `${base}.${name}`;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The values a discriminator accepts, read from the `const` of each oneOf branch (verbose mode gives parentSchema). */
function discriminatorValues(error: ErrorObject, tag: string): string[] {
  const oneOf = (error.parentSchema as { oneOf?: unknown } | undefined)?.oneOf;
  if (!Array.isArray(oneOf)) return [];
  return oneOf
    .map((branch: { properties?: Record<string, { const?: unknown }> }) => branch.properties?.[tag]?.const)
    .filter((value): value is string => typeof value === 'string');
}

function describe(error: ErrorObject, rootLabel: string): string {
  const path = fieldPath(error.instancePath);
  const field = path === '' ? rootLabel : path;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${join(path, params['missingProperty'])} is required`;
    case 'additionalProperties':
      return `${join(path, params['additionalProperty'])} is not a known field`;
    case 'dependentRequired':
      return `${join(path, params['missingProperty'])} is required when ${join(path, params['property'])} is present`;
    case 'enum':
      return `${field} must be one of ${(params['allowedValues'] as unknown[]).map(str).join(', ')}`;
    case 'const':
      return `${field} must be ${str(params['allowedValue'])}`;
    case 'format':
      return `${field} must be a valid ${str(params['format'])}`;
    case 'type':
      return `${field} must be ${Array.isArray(params['type']) ? params['type'].join(' or ') : str(params['type'])}`;
    case 'propertyNames':
      return `${field} has an invalid name ${str(params['propertyName'])}`;
    case 'discriminator': {
      const tag = str(params['tag']);
      const values = discriminatorValues(error, tag);
      return values.length > 0 ? `${join(path, tag)} must be one of ${values.join(', ')}` : `${join(path, tag)} is invalid`;
    }
    case 'anyOf':
    case 'oneOf': {
      const description = (error.parentSchema as { description?: unknown } | undefined)?.description;
      return typeof description === 'string' ? `${field} is invalid: expected ${description}` : `${field} does not match any allowed form`;
    }
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * One readable line per problem, each naming the field (`pageSize must be <= 100`). The inner errors of
 * an anyOf/oneOf are folded into the one line of their alternative: "must be string, must be array,
 * must match a schema in anyOf" would tell the caller less than the alternative's description does.
 */
export function describeValidationErrors(errors: readonly ErrorObject[], rootLabel: string): string[] {
  const alternatives = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => `${e.schemaPath}/`);
  const kept = errors.filter(
    (e) =>
      !alternatives.some((prefix) => e.schemaPath.startsWith(prefix)) &&
      // propertyNames reports the failing inner keyword too; its own line names the key.
      !(e.propertyName !== undefined && e.keyword !== 'propertyNames'),
  );
  return [...new Set(kept.map((e) => describe(e, rootLabel)))];
}
