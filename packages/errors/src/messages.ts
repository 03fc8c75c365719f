/**
 * Every message string the public API answers with, in one place.
 *
 * WARNING: these texts are part of the HTTP contract (interface.md section 7) and clients match on
 * them. Renaming one is a breaking change of /v1, not a refactoring.
 */
export const ErrorMessages = {
  /** 402: subscription expired or none purchased. */
  subscriptionRequired: 'You Need To Renew Your Subscription or Purchase New One',
  /** 403: the caller's subscription does not cover this endpoint. */
  noSubscriptionForEndpoint: 'No Subscription Found For This Service Endpoint',
  /** 429: subscription usage limit reached. */
  subscriptionLimitExceeded: 'Your Subscription Limits For This Service is Exceeded',
  /** 500: anything unexpected. */
  invocationFailed: 'An Error Occurred During Invocation',

  // Transport-level messages of the gateway (not given by the contract; kept stable all the same).
  malformedJson: 'Malformed JSON request body',
  payloadTooLarge: 'Request body is too large',
  unsupportedMediaType: 'Content-Type must be application/json',
  notFound: 'No handler found for this path and method',
  unauthorized: 'Authentication is required',
  forbidden: 'Access is denied',
  /** 429: a request-rate limit that no subscription meters (sign-in, password reset, unmetered calls, many errors). */
  tooManyRequests: 'Too Many Requests, Slow Down And Retry Later',
  /** 503: a backing service or its database does not answer; nothing was changed, retry later. */
  serviceUnavailable: 'The Service Is Temporarily Unavailable, Please Retry Shortly',
} as const;

export type ErrorMessageKey = keyof typeof ErrorMessages;

/**
 * 403: the queried location is outside the subscription's geographic boundaries.
 * `The Location You Are Querying [lat, lng] Is Not Within The Geographic Boundaries Allowed In Your Subscription [Country, Region]`
 */
export function outsideGeographicBoundaries(lat: number, lng: number, country: string, region: string): string {
  return `The Location You Are Querying [${lat}, ${lng}] Is Not Within The Geographic Boundaries Allowed In Your Subscription [${country}, ${region}]`;
}

/** 501: an operation whose backing service is not wired into the gateway yet. */
export function notAvailableYet(operationId: string): string {
  return `${operationId} is not available yet`;
}
