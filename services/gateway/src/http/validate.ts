import type { RequestHandler } from 'express';
import { Ajv2020, type AnySchema, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { JsonSchema } from '../schemas/json-schema.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { sendError } from './errors.js';
import { requestState } from './request-state.js';
import { describeValidationErrors } from './validation-messages.js';

function createAjv(coerceTypes: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    // Path and query values arrive as strings; bodies are JSON and keep their types ("10" is not a number there).
    coerceTypes,
    strict: true,
    // anyOf branches that only list required names (webhook: accountId or url) are intended.
    strictRequired: false,
    allowUnionTypes: true,
    discriminator: true,
    // parentSchema lets the messages quote descriptions and discriminator values.
    verbose: true,
  });
  // CommonJS module under nodenext: the plugin is its `default` export.
  ajvFormats.default(ajv);
  return ajv;
}

export interface SchemaCompiler {
  compileBody(schema: JsonSchema): ValidateFunction;
  compileParameters(schema: JsonSchema): ValidateFunction;
}

export function createSchemaCompiler(): SchemaCompiler {
  const bodies = createAjv(false);
  const parameters = createAjv(true);
  return {
    compileBody: (schema) => bodies.compile(schema as AnySchema),
    compileParameters: (schema) => parameters.compile(schema as AnySchema),
  };
}

/** Copies a parsed query (string | string[] | nested) into a plain object ajv may coerce in place. */
function plain(source: unknown): Record<string, unknown> {
  return typeof source === 'object' && source !== null ? { ...(source as Record<string, unknown>) } : {};
}

/**
 * Validates path parameters, query and body of one operation against its schemas and answers 400
 * with every problem at once; on success the coerced input is kept for the handler.
 */
export function validateRequest(spec: RouteSpec, compiler: SchemaCompiler): RequestHandler {
  const params = spec.request.params ? compiler.compileParameters(spec.request.params) : undefined;
  const query = spec.request.query ? compiler.compileParameters(spec.request.query) : undefined;
  const body = spec.request.body ? compiler.compileBody(spec.request.body) : undefined;
  return (req, res, next) => {
    const problems: string[] = [];
    const input = { params: plain(req.params), query: plain(req.query), body: req.body as unknown };
    if (params && !params(input.params)) problems.push(...describeValidationErrors(params.errors ?? [], 'path'));
    if (query && !query(input.query)) problems.push(...describeValidationErrors(query.errors ?? [], 'query'));
    if (body) {
      if (input.body === undefined) problems.push('request body is required');
      else if (!body(input.body)) problems.push(...describeValidationErrors(body.errors ?? [], 'request body'));
    }
    const first = problems[0];
    if (first !== undefined) {
      sendError(req, res, 400, first, problems);
      return;
    }
    requestState(req).input = input;
    next();
  };
}
