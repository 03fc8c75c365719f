import { reasonPhrase } from './reason-phrase.js';
import { localTimestamp } from './timestamp.js';

/** The body of every error answer of the public API (interface.md 2.1). */
export interface ErrorResponse {
  /** Local date-time, nanosecond precision, no zone. */
  timestamp: string;
  status: number;
  /** HTTP reason phrase of `status`. */
  error: string;
  message: string;
  /** Request path that caused the error. */
  path: string;
  messages?: string[];
}

/** Builds an ErrorResponse stamped with the current local time. */
export function errorResponse(
  status: number,
  message: string,
  path: string,
  messages?: readonly string[],
  timestamp: string = localTimestamp(),
): ErrorResponse {
  const body: ErrorResponse = {
    timestamp,
    status,
    error: reasonPhrase(status),
    // The contract requires at least one character in message and path.
    message: message.length > 0 ? message : reasonPhrase(status),
    path: path.length > 0 ? path : '/',
  };
  if (messages !== undefined && messages.length > 0) body.messages = [...messages];
  return body;
}
