import type { JsonSchema } from '../schemas/json-schema.js';
import type { OperationId } from './operation-ids.js';
import type { RouteTag } from './route-tags.js';

/*
 * What an operation is, read by the route table (routes/), the request pipeline (http/) and the
 * OpenAPI document (openapi/). It lives apart from all three so that none of them imports another
 * for it: http/ never reaches into routes/, which mounts http/ middleware.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Error statuses an operation documents; 413 and 415 are added for every operation with a body. */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 429 | 500 | 503;

/** One operation of the /v1 surface: what it accepts and answers. Handlers are bound separately. */
export interface RouteSpec {
  operationId: OperationId;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v1/users/{userId}`. */
  path: string;
  summary: string;
  description?: string;
  tag: RouteTag;
  /** Who may call it, in words (interface.md 5); the role guard lives in the handler chain. */
  roles: string;
  /** False for operations open to anyone (login, health, the OpenAPI document). */
  authenticated: boolean;
  /**
   * For an operation open to anyone: a caller who sends credentials anyway is identified (its role
   * the access snapshot's, as for authenticated operations), so the answer may depend on it (the
   * details of /v1/health are for ADMIN). Bad credentials answer 401; none are fine.
   */
  identifiesCaller?: boolean;
  request: {
    params?: JsonSchema;
    query?: JsonSchema;
    body?: JsonSchema;
  };
  response: {
    status: number;
    description: string;
    schema?: JsonSchema;
  };
  errors: readonly ErrorStatus[];
  /** Other non-ErrorResponse answers worth documenting (the 503 of the health report). */
  otherResponses?: Readonly<Record<number, { description: string; schema?: JsonSchema }>>;
}
