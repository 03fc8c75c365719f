import { trace, type Attributes, type Tracer } from '@opentelemetry/api';

/**
 * Looked up per use, not cached at import: a test (or a service) may register its tracer provider
 * after this module loaded, and the API hands out a fresh proxy after each re-registration.
 */
export function kafkaTracer(): Tracer {
  return trace.getTracer('@stormhook/kafka');
}

/** OpenTelemetry messaging semantic-convention attributes shared by producer and consumer spans. */
export function messagingAttributes(topic: string, extra: Attributes = {}): Attributes {
  return { 'messaging.system': 'kafka', 'messaging.destination.name': topic, ...extra };
}
