import { ErrorResponse } from '../schemas/common.js';
import type { JsonSchema } from '../schemas/json-schema.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { SchemaComponents } from './components.js';
import { ERROR_RESPONSE_NAMES, errorResponseComponents } from './error-responses.js';
import { exampleOf } from './examples.js';
import { operationExamples } from './operation-examples.js';
import { alternativeContent, successHeaders } from './response-headers.js';
import { webhooksSection } from './webhooks.js';
import { CALLBACK_SECURITY_SCHEMES } from './callback-security.js';
import { ROUTE_TAGS } from '../contract/route-tags.js';

export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, Record<string, unknown>> };

export interface DocumentInfo {
  title: string;
  version: string;
  description?: string;
}

const DEFAULT_INFO: DocumentInfo = {
  title: 'Stormhook API',
  version: '1.0.0',
  description:
    'Weather data (precipitation, thunderstorms, forecasts) and weather alarms delivered by webhook, for Turkey and ' +
    'Northern Cyprus. Every error answer is an ErrorResponse.\n\n' +
    'Authentication: `Authorization: Bearer <accessToken>` from POST /v1/auth/login (refresh with POST /v1/auth/refresh), ' +
    'or `X-API-Key` for machine clients (role API_USER). Data and alarm operations are checked against the subscription: ' +
    '402 when it is expired or NONE, 403 when it lacks the endpoint or the queried place, 429 with Retry-After once its ' +
    'quota is spent. Their answers carry RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset (seconds) and ' +
    'RateLimit-Policy; only successful calls count.\n\n' +
    'Weather data can also be published to Stormhook over Kafka: the feed topics are described by the ' +
    '[AsyncAPI 3 document](/v1/asyncapi.json).',
};

/** Both ways a caller can authenticate: a token from /v1/auth/login, or an API key. */
const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'accessToken from POST /v1/auth/login' },
  apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'API key from POST /v1/api-keys/create (role API_USER only)' },
};

function properties(schema: JsonSchema | undefined): Array<[string, JsonSchema]> {
  const props = schema?.['properties'];
  return props && typeof props === 'object' ? Object.entries(props as Record<string, JsonSchema>) : [];
}

function requiredOf(schema: JsonSchema | undefined): string[] {
  const required = schema?.['required'];
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
}

function jsonContent(schema: JsonSchema | undefined, components: SchemaComponents, example?: unknown): Record<string, unknown> | undefined {
  if (!schema) return undefined;
  return { content: { 'application/json': { schema: components.reference(schema), ...(example !== undefined ? { example } : {}) } } };
}

function operationObject(spec: RouteSpec, components: SchemaComponents): Record<string, unknown> {
  const parameters = [
    ...properties(spec.request.params).map(([name, schema]) => ({
      name,
      in: 'path',
      required: true,
      schema: components.reference(schema),
      example: exampleOf(schema, 'request', name),
    })),
    ...properties(spec.request.query).map(([name, schema]) => ({
      name,
      in: 'query',
      required: requiredOf(spec.request.query).includes(name),
      schema: components.reference(schema),
      example: exampleOf(schema, 'request', name),
    })),
  ];
  const examples = operationExamples(spec);
  const success = jsonContent(spec.response.schema, components, examples.response) as { content?: Record<string, unknown> } | undefined;
  const headers = successHeaders(spec);
  const alternatives = alternativeContent(spec.operationId, examples.response);
  const responses: Record<string, unknown> = {
    [String(spec.response.status)]: {
      description: spec.response.description,
      ...(headers ? { headers } : {}),
      ...(success || alternatives ? { content: { ...success?.content, ...alternatives } } : {}),
    },
  };
  for (const [status, other] of Object.entries(spec.otherResponses ?? {})) {
    responses[status] = { description: other.description, ...jsonContent(other.schema, components) };
  }
  const errors = new Set<number>(spec.errors);
  if (spec.request.body) {
    errors.add(400).add(413).add(415);
  }
  // The abuse limits (http/rate-limits.ts) may refuse any operation but the health checks and this document.
  if (spec.tag !== 'system') errors.add(429);
  for (const status of [...errors].sort((a, b) => a - b)) {
    const name = ERROR_RESPONSE_NAMES[status];
    if (name !== undefined) responses[String(status)] = { $ref: `#/components/responses/${name}` };
  }
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: `${spec.description ? `${spec.description}\n\n` : ''}Allowed: ${spec.roles}.`,
    tags: [spec.tag],
    'x-roles': spec.roles,
    // An empty requirement makes the credentials optional (OpenAPI 3.1 Security Requirement Object).
    security: spec.authenticated ? [{ bearerAuth: [] }, { apiKeyAuth: [] }] : spec.identifiesCaller ? [{}, { bearerAuth: [] }, { apiKeyAuth: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.request.body ? { requestBody: { required: true, ...jsonContent(spec.request.body, components, examples.request) } } : {}),
    responses,
  };
}

/**
 * Where the API is served: the gateway that serves the document (relative, so it is right behind any
 * host or proxy), and the local stack of `npm start`.
 */
const SERVERS = [
  { url: '/', description: 'the gateway serving this document' },
  { url: 'http://127.0.0.1:8080', description: 'the local stack (npm start)' },
];

/** The OpenAPI 3.1 document of the route table: the same schemas that validate requests describe them. */
export function buildOpenApiDocument(routes: readonly RouteSpec[], info: DocumentInfo = DEFAULT_INFO): OpenApiDocument {
  const components = new SchemaComponents();
  components.reference(ErrorResponse);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of routes) {
    const item = (paths[spec.path] ??= {});
    if (item[spec.method] !== undefined) throw new Error(`duplicate operation ${spec.method.toUpperCase()} ${spec.path}`);
    item[spec.method] = operationObject(spec, components);
  }
  const webhooks = webhooksSection(components);
  const used = new Set(routes.map((spec) => spec.tag));
  const tags = Object.entries(ROUTE_TAGS)
    .filter(([name]) => used.has(name as keyof typeof ROUTE_TAGS))
    .map(([name, description]) => ({ name, description }));
  return {
    openapi: '3.1.0',
    info,
    servers: SERVERS,
    tags,
    paths,
    webhooks,
    components: {
      schemas: components.schemas,
      responses: errorResponseComponents(),
      securitySchemes: { ...SECURITY_SCHEMES, ...CALLBACK_SECURITY_SCHEMES },
    },
  };
}
