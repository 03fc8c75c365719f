import type { Result as Outcome } from '@stormhook/errors';

/**
 * The expected failures of the notifier's use cases, as values. Messages are safe to show to the
 * caller: they never carry a secret, and a foreign id answers not-found (never "forbidden").
 */
export type NotifierError =
  /** The object does not exist OR belongs to another account: 404. */
  | { kind: 'not-found'; message: string }
  /** The account already has an endpoint (one per account): 409. */
  | { kind: 'conflict'; message: string }
  /** A request field is wrong; `field` is its path in the public request body: 400. */
  | { kind: 'validation'; field: string; message: string }
  /** An abuse limit refuses the request (manual redeliveries of one delivery): 429. */
  | { kind: 'limit'; message: string };

export type NotifierErrorKind = NotifierError['kind'];

export type Result<T> = Outcome<T, NotifierError>;

export { ok, fail } from '@stormhook/errors';

export function notFound(message: string): NotifierError {
  return { kind: 'not-found', message };
}

export function conflict(message: string): NotifierError {
  return { kind: 'conflict', message };
}

/** `message` starts with the field path so that the 400 names it even where only the text is shown. */
export function validation(field: string, message: string): NotifierError {
  return { kind: 'validation', field, message: message.startsWith(field) ? message : `${field} ${message}` };
}

export function limit(message: string): NotifierError {
  return { kind: 'limit', message };
}

/** The HTTP status the gateway answers for each kind. */
export const HTTP_STATUS_OF: Readonly<Record<NotifierErrorKind, number>> = {
  'not-found': 404,
  conflict: 409,
  validation: 400,
  limit: 429,
};
