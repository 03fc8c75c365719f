import { context, propagation, type Context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * The wire format of trace context between our services: W3C `traceparent`/`tracestate` plus
 * `baggage`. It is part of the contract between services, so inject/extract use this propagator
 * directly rather than whatever is registered globally: context still crosses HTTP, gRPC and Kafka
 * even in a process that never called `initTelemetry` (a test, a CLI).
 */
export const w3cPropagator = new CompositePropagator({
  propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
});

/** Header values as the transports hand them over: HTTP (string | string[]), gRPC metadata, Kafka (Buffer). */
export type CarrierValue = string | Buffer | ReadonlyArray<string | Buffer> | undefined;
export type Carrier = Record<string, CarrierValue>;

function asText(value: string | Buffer): string {
  return typeof value === 'string' ? value : value.toString('utf8');
}

/** Kafka header names keep the sender's case while HTTP/gRPC lower-case them, so look up case-insensitively. */
function lookup(carrier: Carrier, key: string): CarrierValue {
  const exact = carrier[key];
  if (exact !== undefined) return exact;
  const wanted = key.toLowerCase();
  for (const name of Object.keys(carrier)) {
    if (name.toLowerCase() === wanted) return carrier[name];
  }
  return undefined;
}

const getter: TextMapGetter<Carrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = lookup(carrier, key);
    if (value === undefined) return undefined;
    if (typeof value === 'string' || Buffer.isBuffer(value)) return asText(value);
    return (value as ReadonlyArray<string | Buffer>).map(asText);
  },
};

const setter: TextMapSetter<Record<string, string>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/**
 * Writes the trace context of `ctx` (default: the active context) into `carrier` and returns the
 * same object, so a caller can write `headers: injectTraceContext({ ... })`.
 */
export function injectTraceContext(carrier: Record<string, string>, ctx: Context = context.active()): Record<string, string> {
  w3cPropagator.inject(ctx, carrier, setter);
  return carrier;
}

/**
 * Reads trace context from incoming headers into a Context derived from `base` (default: the active
 * context). Without a valid `traceparent` the result simply carries no remote span.
 */
export function extractTraceContext(carrier: Carrier, base: Context = context.active()): Context {
  return w3cPropagator.extract(base, carrier, getter);
}

/** Registers the same propagator globally, so third-party instrumentation agrees with ours. */
export function registerGlobalPropagator(): void {
  propagation.setGlobalPropagator(w3cPropagator);
}
