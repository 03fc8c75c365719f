import { nonEmptyString, url, uuid } from './common.js';
import { closedObject, enumOf, named, openObject } from './json-schema.js';

/** Header names as RFC 9110 tokens; reserved names are refused by the notifier, which owns the rule. */
const headerName = '^[A-Za-z0-9!#$%&\'*+.^_`|~-]{1,64}$';

export const WEBHOOK_AUTH_TYPES = ['BASIC', 'API_KEY', 'JWT', 'HMAC'] as const;
export const WEBHOOK_HTTP_METHODS = ['POST', 'PUT', 'PATCH'] as const;

const authentication = closedObject({
  type: enumOf(WEBHOOK_AUTH_TYPES),
  username: nonEmptyString(256),
  password: { type: 'string', minLength: 1, maxLength: 4096, writeOnly: true },
  asHeader: { type: 'boolean', description: 'API_KEY: send the key in the X-API-Key header' },
  asQueryParameter: { type: 'boolean', description: 'API_KEY: send the key as the apiKey query parameter' },
});

/**
 * Units are not fixed by the contract (2.2); the notifier owns the bounds and reports them with the
 * unit, so the gateway only rejects what can never be right.
 */
const deliveryPolicy = closedObject({
  timeout: { type: 'integer', format: 'int32', minimum: 1 },
  maxRetries: { type: 'integer', format: 'int32', minimum: 0 },
  retryDelay: { type: 'integer', format: 'int32', minimum: 0 },
});

const webhookFields = {
  accountId: { ...uuid, description: 'account whose stored webhook is reused; omit on the first registration' },
  url: { ...url, description: 'callback target' },
  httpMethod: enumOf(WEBHOOK_HTTP_METHODS),
  contentType: { type: 'string', pattern: '^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+$', maxLength: 128 },
  authentication,
  requestHeaders: {
    type: 'object',
    propertyNames: { pattern: headerName },
    additionalProperties: { type: 'string', maxLength: 1024 },
    maxProperties: 20,
  },
  deliveryPolicy,
};

/**
 * interface.md 2.2 with the lifecycle of section 3: the first registration of an account carries the
 * complete configuration (url), later ones only `accountId`.
 */
export const WebhookConfigRequest = named(
  'WebhookConfigRequest',
  closedObject(webhookFields, [], {
    anyOf: [{ required: ['accountId'] }, { required: ['url'] }],
    description: 'either accountId of the stored webhook, or a complete configuration with url',
  }),
);

/** Update of the account's stored webhook (the update operation referenced by interface.md 4.19). */
export const WebhookUpdateRequest = named('WebhookUpdateRequest', closedObject(webhookFields, ['url']));

/** In responses accountId is the account id, authentication has no type and the password is masked. */
export const WebhookConfig = named(
  'WebhookConfig',
  openObject({
    accountId: uuid,
    url: { type: 'string' },
    httpMethod: { type: 'string' },
    contentType: { type: 'string' },
    authentication: openObject({
      username: { type: 'string' },
      password: { type: 'string', description: 'always masked' },
    }),
    requestHeaders: { type: 'object', additionalProperties: { type: 'string' } },
    deliveryPolicy: openObject({
      timeout: { type: 'integer' },
      maxRetries: { type: 'integer' },
      retryDelay: { type: 'integer' },
    }),
  }),
);
