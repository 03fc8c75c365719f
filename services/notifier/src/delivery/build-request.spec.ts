import assert from 'node:assert/strict';
import { EVENT_TYPE_HEADER, WEBHOOK_EVENT_TYPES, webhookEnvelope, type WebhookEventType } from '@stormhook/webhooks';
import { newDeliveryState, type Delivery, type EventKind } from '../domain/delivery.js';
import { newWebhookEndpoint, type ContentType, type WebhookEndpoint } from '../domain/endpoint.js';
import { generateSigningSecret } from '../domain/signing-secret.js';
import { buildRequest } from './build-request.js';

const NOW = new Date('2026-03-04T05:06:07Z');

function endpoint(contentType: ContentType = 'application/json'): WebhookEndpoint {
  return newWebhookEndpoint(
    {
      url: 'https://hooks.example.com/stormhook',
      httpMethod: 'POST',
      contentType,
      authentication: { type: 'NONE', username: '', password: '' },
      requestHeaders: { 'X-Tenant': 'acme' },
      deliveryPolicy: { timeoutMs: 3_000, maxRetries: 2, retryDelaySeconds: 5 },
    },
    { id: 'ep_1', accountId: 'acc_1', signingSecret: generateSigningSecret(), now: NOW },
  );
}

function delivery(eventKind: EventKind, phase: string, payload: string): Delivery {
  return {
    id: 'ntf_1',
    accountId: 'acc_1',
    endpointId: 'ep_1',
    registrationId: 'reg_1',
    registrationKind: 'REGISTRATION_KIND_GEOMETRY',
    recipientId: 'asset-1',
    eventKind,
    phase,
    eventId: 'evt_1',
    occurredAt: NOW,
    triggeredAt: NOW,
    payload,
    ackId: 'ntf_1',
    test: eventKind === 'TEST',
    ...newDeliveryState(NOW),
  };
}

/** The kind and phase the pipeline stores with each event type (AlarmTriggered, notifier test sends). */
const RAISED: ReadonlyArray<[EventKind, string, WebhookEventType]> = [
  ['LIGHTNING', 'START', 'lightning.strike'],
  ['LIGHTNING', 'ALL_CLEAR', 'lightning.all_clear'],
  ['LIGHTNING', 'APPROACHING', 'lightning.approaching'],
  ['THUNDERSTORM', 'START', 'thunderstorm.start'],
  ['THUNDERSTORM', 'UPDATE', 'thunderstorm.update'],
  ['THUNDERSTORM', 'END', 'thunderstorm.end'],
  ['THUNDERSTORM', 'APPROACHING', 'thunderstorm.approaching'],
  ['THUNDERSTORM', 'APPROACH_CANCELLED', 'thunderstorm.approach_cancelled'],
  ['PRECIPITATION', 'START', 'precipitation.start'],
  ['PRECIPITATION', 'UPDATE', 'precipitation.update'],
  ['PRECIPITATION', 'END', 'precipitation.end'],
  ['PRECIPITATION', 'APPROACHING', 'precipitation.approaching'],
  ['PRECIPITATION', 'APPROACH_CANCELLED', 'precipitation.approach_cancelled'],
  ['FORECAST', 'START', 'forecast.alarm'],
  ['TEST', 'UNSPECIFIED', 'webhook.test'],
];

const body = (type: string) => JSON.stringify({ ...webhookEnvelope(type as WebhookEventType, NOW.getTime()), id: 'ntf_1', registrationId: 'reg_1' });

describe('buildRequest: the webhook-event-type header', () => {
  it('equals the body type for every kind and phase the pipeline raises, in both encodings', () => {
    assert.deepEqual(
      RAISED.map(([, , type]) => type),
      [...WEBHOOK_EVENT_TYPES],
      'the table covers the catalogue',
    );
    for (const contentType of ['application/json', 'application/x-www-form-urlencoded'] as const) {
      for (const [kind, phase, type] of RAISED) {
        const { request } = buildRequest(endpoint(contentType), delivery(kind, phase, body(type)), NOW);
        assert.equal(request.headers[EVENT_TYPE_HEADER], type, `${kind} ${phase} (${contentType})`);
      }
    }
  });

  it('follows the body when the stored kind and phase say otherwise: one source for both', () => {
    const { request } = buildRequest(endpoint(), delivery('LIGHTNING', 'START', body('lightning.all_clear')), NOW);
    assert.equal(request.headers[EVENT_TYPE_HEADER], 'lightning.all_clear');
  });

  it('is left out for a body without a catalogue type, rather than invented', () => {
    for (const payload of [JSON.stringify({ id: 'ntf_1' }), JSON.stringify({ type: 'TEST' }), JSON.stringify({ type: 'a\nb' }), 'not json', '[]']) {
      const { request } = buildRequest(endpoint(), delivery('LIGHTNING', 'START', payload), NOW);
      assert.equal(request.headers[EVENT_TYPE_HEADER], undefined, payload);
      assert.equal(request.headers['x-tenant'] ?? request.headers['X-Tenant'], 'acme', 'the rest of the request is built as usual');
    }
  });
});
