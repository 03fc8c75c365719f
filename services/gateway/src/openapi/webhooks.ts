import { EVENT_TYPE_HEADER, WEBHOOK_EVENT_TYPES, WEBHOOK_PAYLOAD_SCHEMAS } from '@stormhook/webhooks';
import { CALLBACK_SECURITY } from './callback-security.js';
import type { SchemaComponents } from './components.js';
import { WEBHOOK_EXAMPLES } from './webhook-examples.js';

/** The headers every callback carries (notifier README): Standard Webhooks, plus the event type. */
const CALLBACK_HEADERS = [
  { name: 'webhook-id', description: 'the notification id, the same on every retry: de-duplicate on it' },
  { name: 'webhook-timestamp', description: 'epoch seconds of this attempt' },
  { name: 'webhook-signature', description: 'v1,<base64 HMAC-SHA256 of "id.timestamp.body">, one per active signing secret, space-separated' },
  { name: EVENT_TYPE_HEADER, description: "the payload's `type`, to route before parsing the body" },
].map(({ name, description }) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));

/**
 * The OpenAPI 3.1 `webhooks` section: one operation per event type, its body the payload schema of
 * @stormhook/webhooks (the catalogue the matcher builds payloads with), so the document and the
 * deliveries cannot drift apart unnoticed (test/src/alarms/callback-types.int.spec.ts validates real
 * deliveries of every type against the document the gateway serves).
 */
export function webhooksSection(components: SchemaComponents): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => {
      const schema = WEBHOOK_PAYLOAD_SCHEMAS[type];
      return [
        type,
        {
          post: {
            operationId: `callback.${type}`,
            summary: `${type} callback`,
            description:
              `${String(schema['description'] ?? '')}\n\nSent to the account's webhook with its method, content type and authentication ` +
              '(application/x-www-form-urlencoded endpoints get the same JSON in a `payload` field). Payload version 1: fields are only ' +
              'added within a version, so ignore fields you do not know.',
            parameters: CALLBACK_HEADERS,
            security: CALLBACK_SECURITY,
            requestBody: { required: true, content: { 'application/json': { schema: components.reference(schema), example: WEBHOOK_EXAMPLES[type] } } },
            responses: {
              '200': { description: 'received; any 2xx counts. Other answers are retried by the delivery policy (429 and 503 honour Retry-After).' },
            },
          },
        },
      ];
    }),
  );
}
