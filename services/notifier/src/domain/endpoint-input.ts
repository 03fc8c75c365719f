import { validateAuthentication, type Authentication, type AuthenticationInput } from './authentication.js';
import { DEFAULT_POLICY_BOUNDS, validateDeliveryPolicy, type DeliveryPolicy, type DeliveryPolicyBounds } from './delivery-policy.js';
import { CONTENT_TYPES, HTTP_METHODS, type ContentType, type EndpointConfig, type HttpMethod } from './endpoint.js';
import { fail, ok, validation, type Result } from './notifier-error.js';
import { validateRequestHeaders } from './request-headers.js';

/** The public `webhook` object as a transport hands it over: everything optional, nothing trusted. */
export interface EndpointConfigInput {
  url?: string | undefined;
  httpMethod?: string | undefined;
  contentType?: string | undefined;
  authentication?: AuthenticationInput | undefined;
  requestHeaders?: Record<string, string> | undefined;
  deliveryPolicy?: Partial<DeliveryPolicy> | undefined;
}

/**
 * Checks a callback URL at registration and answers it normalised (security/url-guard.ts is the one
 * service.ts wires: syntax, then the SSRF policy on the addresses the name resolves to).
 */
export interface CallbackUrlCheck {
  validate(raw: string | undefined): Promise<Result<string>>;
}

export interface EndpointValidationDeps {
  urlGuard: CallbackUrlCheck;
  policyBounds?: DeliveryPolicyBounds;
}

function pick<T extends string>(raw: string | undefined, allowed: readonly T[], fallback: T, field: string): Result<T> {
  if (raw === undefined || raw.trim() === '') return ok(fallback);
  const wanted = raw.trim().toLowerCase();
  const found = allowed.find((value) => value.toLowerCase() === wanted);
  return found ? ok(found) : fail(validation(field, `must be one of ${allowed.join(', ')}`));
}

/**
 * Validates a whole endpoint configuration, first error wins. `stored` are the current credentials on
 * update (a masked password keeps them).
 */
export async function validateEndpointConfig(
  input: EndpointConfigInput,
  deps: EndpointValidationDeps,
  stored?: Authentication,
): Promise<Result<EndpointConfig>> {
  const url = await deps.urlGuard.validate(input.url);
  if (!url.ok) return url;
  const httpMethod = pick<HttpMethod>(input.httpMethod?.toUpperCase(), HTTP_METHODS, 'POST', 'webhook.httpMethod');
  if (!httpMethod.ok) return httpMethod;
  const contentType = pick<ContentType>(input.contentType, CONTENT_TYPES, 'application/json', 'webhook.contentType');
  if (!contentType.ok) return contentType;
  const authentication = validateAuthentication(input.authentication, stored);
  if (!authentication.ok) return authentication;
  if (authentication.value.type === 'API_KEY_QUERY' && new URL(url.value).searchParams.has('apiKey')) {
    return fail(validation('webhook.url', 'must not contain an apiKey parameter when authentication.type is API_KEY_QUERY'));
  }
  const requestHeaders = validateRequestHeaders(input.requestHeaders, authentication.value.type);
  if (!requestHeaders.ok) return requestHeaders;
  const deliveryPolicy = validateDeliveryPolicy(input.deliveryPolicy, deps.policyBounds ?? DEFAULT_POLICY_BOUNDS);
  if (!deliveryPolicy.ok) return deliveryPolicy;
  return ok({
    url: url.value,
    httpMethod: httpMethod.value,
    contentType: contentType.value,
    authentication: authentication.value,
    requestHeaders: requestHeaders.value,
    deliveryPolicy: deliveryPolicy.value,
  });
}
