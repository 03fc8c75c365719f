/**
 * An error and the errors it wraps, outermost first: kafkajs's retrier keeps the last failure in
 * `originalError`, other code in the standard `cause`. What the broker said is usually inside.
 */
export function* errorChain(error: unknown): Generator<Error> {
  for (let e: unknown = error; e instanceof Error; e = (e as { originalError?: unknown }).originalError ?? e.cause) yield e;
}
