import type { Dependency } from '../domain/errors.js';

/**
 * Thrown by an adapter when a service it calls does not answer (timeout, connection refused, 5xx):
 * use cases turn it into a 503 for API callers, consumers into a retry.
 */
export class DependencyUnavailableError extends Error {
  override readonly name = 'DependencyUnavailableError';

  constructor(
    readonly dependency: Dependency,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
