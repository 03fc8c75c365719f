import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { pino, stdTimeFunctions, type DestinationStream, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

export interface LoggerOptions {
  service: string;
  /** pino level name: trace, debug, info, warn, error, fatal or silent. Default info. */
  level?: string;
  /** Where JSON lines go; default stdout. Tests pass a stream that collects lines. */
  destination?: DestinationStream;
  /** Extra paths to redact, on top of {@link DEFAULT_REDACT_PATHS}. */
  redact?: string[];
}

/**
 * Credentials must never reach a log line (reliability rules: secrets are never logged), yet they
 * travel in objects that handlers like to log whole: request headers, registrations, configs.
 */
export const DEFAULT_REDACT_PATHS: readonly string[] = [
  'password',
  '*.password',
  'secret',
  '*.secret',
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
];

/** Joins every line to its trace, so a log search can jump to the trace and back. */
function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  const spanContext = span?.spanContext();
  if (!spanContext || !isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}

/** A pino JSON logger: `service` on every line, ISO time, level as its name, trace ids from the active span. */
export function createLogger(opts: LoggerOptions): Logger {
  return pino(
    {
      level: opts.level ?? 'info',
      base: { service: opts.service },
      timestamp: stdTimeFunctions.isoTime,
      // Level names rather than numbers: log pipelines and humans both read "warn" more reliably than 40.
      formatters: { level: (label) => ({ level: label }) },
      mixin: traceFields,
      redact: { paths: [...DEFAULT_REDACT_PATHS, ...(opts.redact ?? [])], censor: '[redacted]' },
    },
    opts.destination,
  );
}
