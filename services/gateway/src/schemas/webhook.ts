import { nonEmptyString, url, uuid } from './common.js';
import { closedObject, enumOf, named, openObject } from './json-schema.js';

/** Header names as RFC 9110 tokens; reserved names are refused by the notifier, which owns the rule. */
const headerName = "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$";

/**
 * Public names of `authentication.type`; API_KEY is the incumbent's name of API_KEY_HEADER (or, with
 * asQueryParameter, API_KEY_QUERY) and JWT its name of BEARER. handlers/webhook-mapping.ts turns them
 * into the notifier's enum and is the one place that rejects an unknown name (naming
 * webhook.authentication.type, like the notifier's own webhook errors).
 */
export const WEBHOOK_AUTH_TYPES = ['NONE', 'BASIC', 'API_KEY', 'API_KEY_HEADER', 'API_KEY_QUERY', 'BEARER', 'JWT', 'HMAC'] as const;
export const WEBHOOK_HTTP_METHODS = ['POST', 'PUT', 'PATCH'] as const;

const authentication = closedObject(
  {
    type: {
      type: 'string',
      minLength: 1,
      maxLength: 32,
      examples: [...WEBHOOK_AUTH_TYPES],
      description:
        `one of ${WEBHOOK_AUTH_TYPES.join(', ')}. NONE: nothing; BASIC: Authorization: Basic base64(username:password); ` +
        'API_KEY_HEADER (API_KEY): X-API-Key: password; API_KEY_QUERY (API_KEY with asQueryParameter): ?apiKey=password; ' +
        'BEARER (JWT): Authorization: Bearer password; HMAC: X-Client-Id (username), X-Signature, X-HmacAlgorithm, X-Timestamp, ' +
        'X-Nonce keyed with password. Left out on update: the stored type is kept. Never returned.',
    },
    username: nonEmptyString(256),
    password: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      writeOnly: true,
      description: 'the secret (password, API key, token or HMAC key); on update "******" keeps the stored one',
    },
    asHeader: { type: 'boolean', description: 'API_KEY: send the key in the X-API-Key header (the default)' },
    asQueryParameter: { type: 'boolean', description: 'API_KEY: send the key as the apiKey query parameter' },
  },
  [],
  { description: 'credentials put on each callback' },
);

/**
 * Units are not fixed by the contract (2.2); ours are (notifier README). The notifier owns the bounds
 * (operators may change them) and reports them with the unit, so the gateway only rejects what can
 * never be right. An absent field takes the default.
 */
const deliveryPolicy = closedObject(
  {
    timeout: { type: 'integer', format: 'int32', minimum: 1, description: 'milliseconds per attempt; 500 to 30000, default 5000' },
    maxRetries: { type: 'integer', format: 'int32', minimum: 0, description: 'retries after the first attempt; 0 to 10, default 3' },
    retryDelay: { type: 'integer', format: 'int32', minimum: 0, description: 'seconds between attempts; 1 to 3600, default 10' },
  },
  [],
  { description: 'retry rules; absent fields take their defaults' },
);

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
} as const;

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
    authentication: openObject(
      {
        username: { type: 'string' },
        password: { type: 'string', description: 'always masked as ******' },
        asHeader: { type: 'boolean', description: 'API key types only: the key goes in the X-API-Key header' },
        asQueryParameter: { type: 'boolean', description: 'API key types only: the key goes in the apiKey query parameter' },
      },
      [],
      { description: 'left out when the webhook sends no credentials; never carries type' },
    ),
    requestHeaders: { type: 'object', additionalProperties: { type: 'string' } },
    deliveryPolicy: openObject({
      timeout: { type: 'integer', description: 'milliseconds per attempt' },
      maxRetries: { type: 'integer', description: 'retries after the first attempt' },
      retryDelay: { type: 'integer', description: 'seconds between attempts' },
    }),
  }),
);

/** The account's stored webhook as GET /v1/alarms/webhooks shows it: 2.2 plus its delivery state. */
export const StoredWebhook = named('StoredWebhook', {
  ...WebhookConfig,
  title: 'StoredWebhook',
  properties: {
    ...(WebhookConfig['properties'] as Record<string, unknown>),
    status: enumOf(['ENABLED', 'DISABLED'], { description: 'DISABLED: no delivery is attempted until POST /v1/alarms/webhooks/enable' }),
    disabledReason: { type: ['string', 'null'], description: 'why it was disabled (410 Gone, failing since ...); null when enabled' },
    disabledAt: { type: ['string', 'null'], format: 'date-time' },
    failingSince: { type: ['string', 'null'], format: 'date-time', description: 'start of the current run of failed attempts; null after a success' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
  required: ['accountId', 'url', 'httpMethod', 'contentType', 'requestHeaders', 'deliveryPolicy', 'status'],
});

/** Standard Webhooks signing secrets of the account's webhook, so a receiver can verify callbacks. */
export const WebhookSigningSecrets = named(
  'WebhookSigningSecrets',
  openObject(
    {
      signingSecret: { type: 'string', description: 'whsec_ + base64; HMAC-SHA256 key of webhook-signature v1' },
      previousSigningSecret: { type: ['string', 'null'], description: 'after a rotation, the old secret while callbacks still carry its signature too' },
      previousSecretExpiresAt: { type: ['string', 'null'], format: 'date-time' },
    },
    ['signingSecret', 'previousSigningSecret', 'previousSecretExpiresAt'],
  ),
);

/** ADMIN names another account with ?accountId=; anyone else acts on their own account. */
const accountIdParameter = { ...uuid, description: 'ADMIN only: act on this account instead of your own' };
export const AccountQuery = { type: 'object', properties: { accountId: accountIdParameter }, additionalProperties: false } as const;

/** Longest overlap of the old and new secret after a rotation (the notifier's limit: 7 days). */
export const MAX_PREVIOUS_SECRET_VALID_SECONDS = 7 * 24 * 3600;
export const RotateSecretQuery = {
  type: 'object',
  properties: {
    accountId: accountIdParameter,
    previousSecretValidSeconds: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_PREVIOUS_SECRET_VALID_SECONDS,
      description: 'seconds the previous secret keeps signing (both signatures are sent); 0 or absent: 86400 (24 h)',
    },
  },
  additionalProperties: false,
} as const;
