export { errorResponse, type ErrorResponse } from './error-response.js';
export { ApiError, isApiError } from './api-error.js';
export { reasonPhrase } from './reason-phrase.js';
export { ErrorMessages, outsideGeographicBoundaries, notAvailableYet, type ErrorMessageKey } from './messages.js';
export { localTimestamp, formatLocalTimestamp, createNanoClock, type NanoClock } from './timestamp.js';
export { ok, fail, type Result, type Success, type Failure } from './result.js';
