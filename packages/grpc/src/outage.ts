/**
 * Errors that mean a dependency (the database, Kafka) cannot be reached right now, recognised by the
 * drivers' error class names so this package needs neither driver. Such a failure is an outage, not
 * a bug: the caller gets UNAVAILABLE (HTTP 503, "retry shortly") at once instead of a bare INTERNAL.
 */
const OUTAGE_ERROR_NAMES = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
  'MongoNotConnectedError',
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
]);

export function isDependencyOutage(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (OUTAGE_ERROR_NAMES.has(e.name) || OUTAGE_ERROR_NAMES.has(e.constructor.name)) return true;
  }
  return false;
}
