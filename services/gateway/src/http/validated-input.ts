import type { Request } from 'express';
import type { JSONSchema } from 'json-schema-to-ts';
import type { RouteSpec } from '../contract/route-spec.js';
import type { Validated } from '../schemas/json-schema.js';
import { currentOperation, validatedInput } from './request-state.js';

type InputPart = keyof RouteSpec['request'];

/**
 * The validated input of one part of the request, typed by the schema that validated it.
 *
 * validateRequest stays the one place that checks input; this only names the schema so the handler
 * gets its static type. The schema must be the very object the operation's spec validates that part
 * with: otherwise the type would be a claim nobody checked, so a mismatch throws (a 500 and a failing
 * test, never a handler reading input of another shape).
 */
function inputOf(req: Request, part: InputPart, schema: JSONSchema): unknown {
  const operation = currentOperation(req);
  if (operation?.request[part] !== schema) {
    throw new Error(`${operation?.operationId ?? 'this route'} does not validate its ${part} with the schema its handler reads it by`);
  }
  return validatedInput(req)[part];
}

// The casts below are what inputOf checked: validateRequest let the value through `schema` (path and
// query values coerced to its types).

export function validatedBody<S extends JSONSchema>(req: Request, schema: S): Validated<S> {
  return inputOf(req, 'body', schema) as Validated<S>;
}

export function validatedParams<S extends JSONSchema>(req: Request, schema: S): Validated<S> {
  return inputOf(req, 'params', schema) as Validated<S>;
}

export function validatedQuery<S extends JSONSchema>(req: Request, schema: S): Validated<S> {
  return inputOf(req, 'query', schema) as Validated<S>;
}
