import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './event-types.js';
import { WEBHOOK_PAYLOAD_SCHEMAS } from './payload-schemas.js';

let compiled: Map<WebhookEventType, ValidateFunction> | undefined;

function validators(): Map<WebhookEventType, ValidateFunction> {
  if (compiled) return compiled;
  // Strict: a keyword ajv does not know (a typo in a schema) fails here rather than documenting nothing.
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  ajvFormats.default(ajv);
  compiled = new Map(WEBHOOK_EVENT_TYPES.map((type) => [type, ajv.compile(WEBHOOK_PAYLOAD_SCHEMAS[type])]));
  return compiled;
}

/**
 * Checks a callback body against the schema of its own `type`: the problems, one line each, or none.
 * For tests and receivers' tooling; the pipeline does not validate what it builds on the hot path.
 */
export function payloadProblems(payload: unknown): string[] {
  const type = typeof payload === 'object' && payload !== null ? (payload as { type?: unknown }).type : undefined;
  const validate = typeof type === 'string' ? validators().get(type as WebhookEventType) : undefined;
  if (!validate) return [`type ${JSON.stringify(type)} is not a webhook event type`];
  if (validate(payload)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `${type}${e.instancePath || ''} ${e.message ?? 'is invalid'}${e.params && 'missingProperty' in e.params ? ` (${String(e.params['missingProperty'])})` : ''}`,
  );
}
