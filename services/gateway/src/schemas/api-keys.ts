import { dateTime, epochMillis, uuid } from './common.js';
import { arrayOf, closedObject, named, openObject, pathParams } from './json-schema.js';

const keyId = { type: 'string', pattern: '^[0-9a-f]{16,64}$', description: 'identifier of the key' } as const;

export const CreateApiKeyRequest = named(
  'CreateApiKeyRequest',
  closedObject({
    userId: { ...uuid, description: 'whose key (ADMIN only); default the caller' },
    name: { type: 'string', minLength: 1, maxLength: 100, description: 'a label for lists' },
    expiresAt: { ...epochMillis, description: 'when the key stops working, epoch milliseconds; absent: until revoked' },
  }),
);

export const CreatedApiKey = named(
  'CreatedApiKey',
  openObject(
    {
      keyId,
      name: { type: 'string' },
      apiKey: { type: 'string', description: 'send it as X-API-Key; shown only in this answer' },
      createdAt: dateTime,
      expiresAt: dateTime,
    },
    ['keyId', 'name', 'apiKey', 'createdAt'],
  ),
);

export const ApiKey = named(
  'ApiKey',
  openObject(
    {
      keyId,
      name: { type: 'string' },
      maskedKey: { type: 'string', description: 'the key with its secret masked but the last four characters' },
      createdAt: dateTime,
      expiresAt: dateTime,
      lastUsedAt: dateTime,
      revoked: { type: 'boolean' },
    },
    ['keyId', 'name', 'maskedKey', 'createdAt', 'revoked'],
  ),
);

export const ApiKeyList = named('ApiKeyList', openObject({ apiKeys: arrayOf(ApiKey) }, ['apiKeys']));

export const ApiKeysQuery = closedObject({ userId: { ...uuid, description: 'whose keys (ADMIN only); default the caller' } });

export const ApiKeyIdParams = pathParams({ keyId });

export const RevokedApiKey = named('RevokedApiKey', openObject({ keyId, revoked: { type: 'boolean' } }, ['keyId', 'revoked']));
