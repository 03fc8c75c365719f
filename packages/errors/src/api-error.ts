import { ErrorMessages, outsideGeographicBoundaries } from './messages.js';

/**
 * An error meant for the caller: the HTTP layer turns it into an ErrorResponse with this status and
 * message. Anything else that is thrown becomes a 500 with the contract's generic message, so
 * internal details never leak.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly messages: readonly string[] | undefined;

  constructor(status: number, message: string, messages?: readonly string[], options?: { cause?: unknown }) {
    super(message, options);
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`ApiError status must be an HTTP error status (400-599), got ${status}`);
    }
    this.status = status;
    this.messages = messages;
  }

  static badRequest(message: string, messages?: readonly string[]): ApiError {
    return new ApiError(400, message, messages);
  }
  static unauthorized(message: string = ErrorMessages.unauthorized): ApiError {
    return new ApiError(401, message);
  }
  static paymentRequired(): ApiError {
    return new ApiError(402, ErrorMessages.subscriptionRequired);
  }
  static noSubscriptionForEndpoint(): ApiError {
    return new ApiError(403, ErrorMessages.noSubscriptionForEndpoint);
  }
  static outsideGeographicBoundaries(lat: number, lng: number, country: string, region: string): ApiError {
    return new ApiError(403, outsideGeographicBoundaries(lat, lng, country, region));
  }
  static forbidden(message: string = ErrorMessages.forbidden): ApiError {
    return new ApiError(403, message);
  }
  static notFound(message: string): ApiError {
    return new ApiError(404, message);
  }
  static limitExceeded(): ApiError {
    return new ApiError(429, ErrorMessages.subscriptionLimitExceeded);
  }
  static internal(cause?: unknown): ApiError {
    return new ApiError(500, ErrorMessages.invocationFailed, undefined, { cause });
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
