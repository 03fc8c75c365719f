import { ApiKeyIdParams, ApiKeyList, ApiKeysQuery, CreateApiKeyRequest, CreatedApiKey, RevokedApiKey } from '../schemas/api-keys.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { RESOURCE_ERRORS } from './error-sets.js';

const owner = 'the key owner (role API_USER), or ADMIN';

/** API keys for machine clients (role API_USER), sent as X-API-Key instead of a Bearer token. */
export const apiKeyRoutes: readonly RouteSpec[] = [
  {
    operationId: 'createApiKey',
    method: 'post',
    path: '/v1/api-keys/create',
    summary: 'Create an API key',
    description: 'The key is in this answer only; it is stored as a hash and cannot be shown again. At most 10 live keys per user.',
    tag: 'api keys',
    roles: owner,
    authenticated: true,
    request: { body: CreateApiKeyRequest },
    response: { status: 201, description: 'the key', schema: CreatedApiKey },
    errors: [...RESOURCE_ERRORS, 409],
  },
  {
    operationId: 'listApiKeys',
    method: 'get',
    path: '/v1/api-keys',
    summary: 'List the API keys of a user, masked',
    tag: 'api keys',
    roles: owner,
    authenticated: true,
    request: { query: ApiKeysQuery },
    response: { status: 200, description: 'the keys', schema: ApiKeyList },
    errors: RESOURCE_ERRORS,
  },
  {
    operationId: 'revokeApiKey',
    method: 'delete',
    path: '/v1/api-keys/revoke/{keyId}',
    summary: 'Revoke an API key',
    description:
      'Every gateway refuses a revoked key within seconds (identity announces the revocation); at most 30 seconds (their verification cache) if that announcement is lost.',
    tag: 'api keys',
    roles: owner,
    authenticated: true,
    request: { params: ApiKeyIdParams },
    response: { status: 200, description: 'revoked', schema: RevokedApiKey },
    errors: RESOURCE_ERRORS,
  },
];
