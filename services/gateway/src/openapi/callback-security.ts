import type { notificationV1 } from '@stormhook/proto';

type CustomerScheme = Exclude<notificationV1.WebhookAuthType, 'WEBHOOK_AUTH_TYPE_UNSPECIFIED' | 'WEBHOOK_AUTH_TYPE_NONE'>;

/** Every callback carries it, whatever else the customer chose: the receiver verifies it with a signing secret. */
const SIGNATURE_SCHEME = 'standardWebhooksSignature';

/**
 * How a callback proves itself to the receiver, as OpenAPI security schemes: the Standard Webhooks
 * signature on every callback, plus the credentials the customer stored with its webhook
 * (`authentication.type`; the notifier sends them as domain/authentication.ts tabulates). Keyed by the
 * notifier's enum, so a new authentication type does not compile until the document describes it.
 */
const CUSTOMER_SCHEMES: Readonly<Record<CustomerScheme, [name: string, scheme: Record<string, string>]>> = {
  WEBHOOK_AUTH_TYPE_BASIC: ['callbackBasic', { type: 'http', scheme: 'basic', description: 'authentication.type BASIC: the stored username and password' }],
  WEBHOOK_AUTH_TYPE_API_KEY_HEADER: [
    'callbackApiKeyHeader',
    { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'authentication.type API_KEY_HEADER (API_KEY): the stored password as X-API-Key' },
  ],
  WEBHOOK_AUTH_TYPE_API_KEY_QUERY: [
    'callbackApiKeyQuery',
    {
      type: 'apiKey',
      in: 'query',
      name: 'apiKey',
      description: 'authentication.type API_KEY_QUERY (API_KEY with asQueryParameter): the stored password as ?apiKey=',
    },
  ],
  WEBHOOK_AUTH_TYPE_BEARER: [
    'callbackBearer',
    { type: 'http', scheme: 'bearer', description: 'authentication.type BEARER (JWT): the stored password as a bearer token' },
  ],
  WEBHOOK_AUTH_TYPE_HMAC: [
    'callbackHmac',
    {
      type: 'apiKey',
      in: 'header',
      name: 'X-Signature',
      description:
        'authentication.type HMAC: X-Client-Id (the stored username), X-Signature (base64 HMAC-SHA256 keyed by the stored password), ' +
        'X-HmacAlgorithm, X-Timestamp and X-Nonce',
    },
  ],
};

/** The security schemes callbacks use, for components.securitySchemes beside the API's own. */
export const CALLBACK_SECURITY_SCHEMES: Readonly<Record<string, Record<string, string>>> = {
  [SIGNATURE_SCHEME]: {
    type: 'apiKey',
    in: 'header',
    name: 'webhook-signature',
    description:
      'Standard Webhooks: v1,<base64 HMAC-SHA256 of "webhook-id.webhook-timestamp.body"> keyed by the base64-decoded part of a ' +
      'signing secret after whsec_ (GET /v1/alarms/webhooks/signing-secret), one per active secret, space-separated. Sent on every callback.',
  },
  ...Object.fromEntries(Object.values(CUSTOMER_SCHEMES)),
};

/**
 * A callback's `security`: the signature alone (authentication.type NONE), or the signature together
 * with the customer's chosen scheme. Each entry is one alternative; the schemes inside it all apply.
 */
export const CALLBACK_SECURITY: ReadonlyArray<Readonly<Record<string, readonly string[]>>> = [
  { [SIGNATURE_SCHEME]: [] },
  ...Object.values(CUSTOMER_SCHEMES).map(([name]) => ({ [SIGNATURE_SCHEME]: [], [name]: [] })),
];
