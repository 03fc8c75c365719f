import { notificationV1 } from '@stormhook/proto';

/**
 * The public `webhook` object (interface.md 2.2) and the notifier's WebhookEndpointConfig, both ways.
 * Used by the webhook routes and by the alarm-registration routes, whose first registration of an
 * account stores the webhook it carries (section 3, rule 1).
 */

/** The public webhook as a request carries it (already schema-checked, but nothing here relies on it). */
export interface PublicWebhookInput {
  accountId?: string | undefined;
  url?: string | undefined;
  httpMethod?: string | undefined;
  contentType?: string | undefined;
  authentication?: PublicAuthenticationInput | undefined;
  requestHeaders?: Record<string, string> | undefined;
  deliveryPolicy?: PublicDeliveryPolicy | undefined;
}

export interface PublicAuthenticationInput {
  type?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
  /** Incumbent flags of its API_KEY type: exactly one may be true. */
  asHeader?: boolean | undefined;
  asQueryParameter?: boolean | undefined;
}

/** Units: timeout milliseconds per attempt, maxRetries retries after the first, retryDelay seconds. */
export interface PublicDeliveryPolicy {
  timeout?: number | undefined;
  maxRetries?: number | undefined;
  retryDelay?: number | undefined;
}

/** The public webhook as responses show it: no authentication.type, the password masked. */
export interface PublicWebhook {
  accountId: string;
  url: string;
  httpMethod: string;
  contentType: string;
  /** Absent when the webhook sends no credentials. */
  authentication?: { username?: string; password?: string; asHeader?: boolean; asQueryParameter?: boolean };
  requestHeaders: Record<string, string>;
  deliveryPolicy: { timeout?: number; maxRetries?: number; retryDelay?: number };
}

export type WebhookMapping<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

export interface ToEndpointConfigOptions {
  /** Path of the webhook object in the request, put in front of field names; default `webhook`. */
  field?: string;
  /**
   * The stored authentication type, used when the request leaves `type` out: responses never show
   * the type, so a client sending back what it read must not silently lose its credentials.
   */
  storedAuthType?: notificationV1.WebhookAuthType | undefined;
}

type AuthType = notificationV1.WebhookAuthType;

/** Public names, aliases included (the incumbent's API_KEY and JWT), to the notifier's enum. */
const AUTH_TYPES: Readonly<Record<string, AuthType>> = {
  NONE: 'WEBHOOK_AUTH_TYPE_NONE',
  BASIC: 'WEBHOOK_AUTH_TYPE_BASIC',
  API_KEY: 'WEBHOOK_AUTH_TYPE_API_KEY_HEADER',
  API_KEY_HEADER: 'WEBHOOK_AUTH_TYPE_API_KEY_HEADER',
  API_KEY_QUERY: 'WEBHOOK_AUTH_TYPE_API_KEY_QUERY',
  BEARER: 'WEBHOOK_AUTH_TYPE_BEARER',
  JWT: 'WEBHOOK_AUTH_TYPE_BEARER',
  HMAC: 'WEBHOOK_AUTH_TYPE_HMAC',
};
export const PUBLIC_AUTH_TYPES: readonly string[] = Object.keys(AUTH_TYPES);

export const MASKED_PASSWORD = '******';

const ok = <T>(value: T): WebhookMapping<T> => ({ ok: true, value });
const problem = (field: string, message: string): WebhookMapping<never> => ({ ok: false, field, message: `${field} ${message}` });
const isApiKey = (type: AuthType): boolean => type === 'WEBHOOK_AUTH_TYPE_API_KEY_HEADER' || type === 'WEBHOOK_AUTH_TYPE_API_KEY_QUERY';

/** The notifier's auth type for the public `authentication`, aliases and the API_KEY flags resolved. */
function authTypeOf(auth: PublicAuthenticationInput, field: string, stored: AuthType | undefined): WebhookMapping<AuthType> {
  const asHeader = auth.asHeader === true;
  const asQuery = auth.asQueryParameter === true;
  if (asHeader && asQuery) return problem(`${field}.asQueryParameter`, 'cannot be true together with asHeader');
  const raw = (auth.type ?? '').trim().toUpperCase();
  let type: AuthType | undefined;
  if (raw === '') {
    if (asHeader || asQuery) type = 'WEBHOOK_AUTH_TYPE_API_KEY_HEADER';
    else if (stored !== undefined && stored !== 'WEBHOOK_AUTH_TYPE_UNSPECIFIED') return ok(stored);
    else if ((auth.username ?? '') !== '' || (auth.password ?? '') !== '') {
      return problem(`${field}.type`, `is required with credentials: one of ${PUBLIC_AUTH_TYPES.join(', ')}`);
    } else return ok('WEBHOOK_AUTH_TYPE_NONE');
  } else {
    type = AUTH_TYPES[raw];
    if (type === undefined) return problem(`${field}.type`, `must be one of ${PUBLIC_AUTH_TYPES.join(', ')}`);
  }
  if (!isApiKey(type)) {
    if (asHeader || asQuery) return problem(`${field}.${asHeader ? 'asHeader' : 'asQueryParameter'}`, 'applies to API key authentication only');
    return ok(type);
  }
  // The incumbent's API_KEY picks header or query with its flags; the explicit names must agree with them.
  if (raw === 'API_KEY' || raw === '') return ok(asQuery ? 'WEBHOOK_AUTH_TYPE_API_KEY_QUERY' : 'WEBHOOK_AUTH_TYPE_API_KEY_HEADER');
  if (type === 'WEBHOOK_AUTH_TYPE_API_KEY_HEADER' && asQuery) return problem(`${field}.asQueryParameter`, 'contradicts type API_KEY_HEADER');
  if (type === 'WEBHOOK_AUTH_TYPE_API_KEY_QUERY' && asHeader) return problem(`${field}.asHeader`, 'contradicts type API_KEY_QUERY');
  return ok(type);
}

/** Only the fields the caller sent: the notifier gives absent ones their defaults. */
function policyOf(policy: PublicDeliveryPolicy | undefined): notificationV1.WebhookDeliveryPolicy | null {
  if (!policy) return null;
  return notificationV1.WebhookDeliveryPolicy.create({
    ...(policy.timeout !== undefined ? { timeoutMs: policy.timeout } : {}),
    ...(policy.maxRetries !== undefined ? { maxRetries: policy.maxRetries } : {}),
    ...(policy.retryDelay !== undefined ? { retryDelaySeconds: policy.retryDelay } : {}),
  });
}

/**
 * The public webhook as the notifier's CreateWebhookEndpoint / UpdateWebhookEndpoint config. Bounds,
 * URL (SSRF) and header rules stay the notifier's, which names the public field and unit in its
 * 400; only what the notifier's enum cannot carry (an unknown auth type name, contradicting API_KEY
 * flags) is refused here. `accountId` is not part of the config.
 */
export function toEndpointConfig(webhook: PublicWebhookInput, options: ToEndpointConfigOptions = {}): WebhookMapping<notificationV1.WebhookEndpointConfig> {
  const field = options.field ?? 'webhook';
  let authentication: notificationV1.WebhookAuthentication | null = null;
  if (webhook.authentication) {
    const type = authTypeOf(webhook.authentication, `${field}.authentication`, options.storedAuthType);
    if (!type.ok) return type;
    authentication = notificationV1.WebhookAuthentication.create({
      type: type.value,
      username: webhook.authentication.username ?? '',
      password: webhook.authentication.password ?? '',
    });
  }
  return ok(
    notificationV1.WebhookEndpointConfig.create({
      url: webhook.url ?? '',
      httpMethod: webhook.httpMethod ?? '',
      contentType: webhook.contentType ?? '',
      authentication,
      requestHeaders: { ...webhook.requestHeaders },
      deliveryPolicy: policyOf(webhook.deliveryPolicy),
    }),
  );
}

/** The stored webhook as an account (or a registration's webhook view) carries it. */
export interface StoredWebhookConfig {
  accountId: string;
  config?: notificationV1.WebhookEndpointConfig | null | undefined;
}

function publicAuthentication(auth: notificationV1.WebhookAuthentication | null | undefined): PublicWebhook['authentication'] {
  if (!auth || auth.type === 'WEBHOOK_AUTH_TYPE_NONE' || auth.type === 'WEBHOOK_AUTH_TYPE_UNSPECIFIED') return undefined;
  return {
    ...(auth.username ? { username: auth.username } : {}),
    // Masked again here: whatever a service answers, a secret never leaves the gateway.
    ...(auth.password ? { password: MASKED_PASSWORD } : {}),
    ...(isApiKey(auth.type)
      ? { asHeader: auth.type === 'WEBHOOK_AUTH_TYPE_API_KEY_HEADER', asQueryParameter: auth.type === 'WEBHOOK_AUTH_TYPE_API_KEY_QUERY' }
      : {}),
  };
}

/** The notifier's endpoint (or a registration's webhook view) in the public 2.2 shape: no type, password masked. */
export function toPublicWebhook(stored: StoredWebhookConfig): PublicWebhook {
  const config = stored.config;
  const policy = config?.deliveryPolicy;
  const authentication = publicAuthentication(config?.authentication);
  return {
    accountId: stored.accountId,
    url: config?.url ?? '',
    httpMethod: config?.httpMethod || 'POST',
    contentType: config?.contentType || 'application/json',
    ...(authentication ? { authentication } : {}),
    requestHeaders: { ...config?.requestHeaders },
    deliveryPolicy: {
      ...(policy?.timeoutMs !== undefined ? { timeout: policy.timeoutMs } : {}),
      ...(policy?.maxRetries !== undefined ? { maxRetries: policy.maxRetries } : {}),
      ...(policy?.retryDelaySeconds !== undefined ? { retryDelay: policy.retryDelaySeconds } : {}),
    },
  };
}
